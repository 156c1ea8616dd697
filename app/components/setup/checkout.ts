/**
 * Razorpay Checkout in the browser (the real script, or the sandbox's stand-in with the same
 * surface). Only the public key and the order id reach the page; the amount shown is the order's.
 */

export interface CheckoutSuccess {
  razorpay_order_id: string;
  razorpay_payment_id: string;
  razorpay_signature: string;
}

export interface CheckoutFailure {
  error?: {
    code?: string;
    description?: string;
    reason?: string;
    metadata?: { order_id?: string; payment_id?: string };
  };
}

export interface CheckoutOptions {
  key: string;
  amount: number;
  currency: string;
  name: string;
  description?: string;
  order_id: string;
  /** A mandate's authorisation (recurring payments): the gateway's customer, and `recurring: "1"`. */
  customer_id?: string;
  recurring?: "1";
  prefill?: { name?: string; email?: string; contact?: string };
  notes?: Record<string, string>;
  theme?: { color?: string };
  handler: (response: CheckoutSuccess) => void;
  modal?: { ondismiss?: () => void };
}

interface CheckoutInstance {
  open(): void;
  close(): void;
  on(event: "payment.failed", handler: (response: CheckoutFailure) => void): void;
}

declare global {
  interface Window {
    Razorpay?: new (options: CheckoutOptions) => CheckoutInstance;
  }
}

let loading: Promise<void> | undefined;

/** Loads the Checkout script once; rejects if it cannot be loaded. */
export function loadCheckout(src: string): Promise<void> {
  if (window.Razorpay) return Promise.resolve();
  loading ??= new Promise<void>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = src;
    script.async = true;
    script.onload = () => (window.Razorpay ? resolve() : reject(new Error("Checkout did not load")));
    script.onerror = () => {
      loading = undefined;
      script.remove();
      reject(new Error("Checkout could not be loaded"));
    };
    document.head.appendChild(script);
  });
  return loading;
}

export async function openCheckout(
  src: string,
  options: CheckoutOptions,
  onFailed: (response: CheckoutFailure) => void,
): Promise<void> {
  await loadCheckout(src);
  const Razorpay = window.Razorpay;
  if (!Razorpay) throw new Error("Checkout is not available");
  const instance = new Razorpay(options);
  instance.on("payment.failed", onFailed);
  instance.open();
}
