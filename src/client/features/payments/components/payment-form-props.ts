/** spec 8 'Payment': a provider error without a message of its own. */
export const PAYMENT_ERROR_FALLBACK = 'An error occurred during payment';

/** What the checkout page gives either provider's card form. */
export type PaymentFormProps = {
  videoId: number;
  clientSecret: string;
  /** Dollars, as the server will charge them. */
  amount: number;
  /** The provider says the payment succeeded: the page records the purchase. */
  onPaid: (paymentIntentId: string) => void;
  /** The provider refused or failed: the page tells the buyer (spec 8). */
  onPaymentError: (message: string) => void;
  /** The intent was canceled because the capper changed the price: nothing charged, the new price to review. */
  onPriceChanged: (message: string) => void;
  /** The purchase is being recorded: the form stays busy. */
  recording: boolean;
};
