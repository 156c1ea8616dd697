/** The spec's words (§5, §8, §9). */
export const SEMINAR_TEXT = {
  title: "Register for Investment Seminar",
  subtitle: "Fill out the form below to secure your spot in our exclusive investment seminar.",
  validation: { title: "Validation Error", description: "Please fill in all fields" },
  email: { title: "Invalid Email", description: "Please enter a valid email address" },
  phone: { title: "Invalid Phone Number", description: "Please enter a valid phone number" },
  success: {
    title: "Registration Successful",
    description: "You will receive a WhatsApp confirmation shortly. We look forward to seeing you at the seminar!",
  },
  failed: "Registration Failed",
  duplicate: "You have already registered for this seminar. Please check your WhatsApp for confirmation.",
  network: "Network error. Please check your internet connection and try again.",
  fallback: "Failed to submit registration. Please try again.",
} as const;

/** What the failure toast says for an error (spec §8). */
export function failureDescription(error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  if (/duplicate|already registered/i.test(message)) return SEMINAR_TEXT.duplicate;
  if (/network|fetch/i.test(message)) return SEMINAR_TEXT.network;
  return message || SEMINAR_TEXT.fallback;
}
