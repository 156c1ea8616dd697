/** A toast carried across a redirect (or shown after an action), in the product's words. */
export interface FlashToast {
  kind: "success" | "error" | "info";
  title: string;
  description?: string;
}
