import { useMutation } from '@tanstack/react-query';
import type { SandboxConfirm, SandboxConfirmResponse } from '#common/schemas/payments.js';
import { apiJson } from '#client/lib/api-request.ts';

/**
 * The sandbox provider's stand-in for Stripe.js's confirmCardPayment (docs/product-decisions.md 'Payments'). A 409 means
 * the intent was canceled because the price changed: nothing was charged.
 */
export async function confirmSandboxPayment(input: SandboxConfirm): Promise<SandboxConfirmResponse> {
  return apiJson<SandboxConfirmResponse>('POST', '/api/payments/sandbox/confirm', input);
}

export function useConfirmSandboxPayment() {
  return useMutation({ mutationFn: confirmSandboxPayment });
}
