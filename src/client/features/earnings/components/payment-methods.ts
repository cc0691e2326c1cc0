import type { PaymentMethod } from '#common/constants.js';

export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  paypal: 'PayPal',
  bank: 'Bank transfer',
  venmo: 'Venmo',
  other: 'Other',
};

export function paymentMethodLabel(method: string): string {
  return (PAYMENT_METHOD_LABELS as Record<string, string>)[method] ?? method;
}
