import { toast as sonner, type ExternalToast } from "sonner";

/** A toast carried across a redirect (or shown after an action), in the product's words. */
export interface FlashToast {
  kind: "success" | "error" | "info";
  title: string;
  description?: string;
}

/**
 * The app's toasts: sonner's, with two rules so that what shows is current. An error replaces an
 * earlier one with the same title instead of stacking under it, and a success dismisses the
 * errors still showing, which it has made stale (a form that failed, then saved).
 */
export const toast = Object.assign((message: Title, data?: ExternalToast) => sonner(message, data), {
  ...sonner,
  success(message: Title, data?: ExternalToast) {
    for (const shown of sonner.getToasts()) if ("type" in shown && shown.type === "error") sonner.dismiss(shown.id);
    return sonner.success(message, data);
  },
  error(message: Title, data?: ExternalToast) {
    return sonner.error(message, { id: typeof message === "string" ? `error:${message}` : undefined, ...data });
  },
});

type Title = Parameters<typeof sonner.success>[0];
