import type { Role } from "~/lib/validation/account";

/** Where each role lands after signing in (spec §2 "After auth"). */
export function homeFor(role: Role | string | undefined): string {
  switch (role) {
    case "creator":
      return "/creator";
    case "business":
      return "/business";
    case "admin":
      return "/dashboard/overview";
    default:
      return "/student";
  }
}

/** Only same-site paths; anything else (//evil.com, https://…, javascript:) is dropped. */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback: string): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  return to;
}

/** Where signing out leads: business owners and others back to their own sign-in, admins to the dashboard login. */
export function signedOutDestination(role: Role | string | undefined): string {
  if (role === "admin") return "/dashboard";
  if (role === "business") return "/auth?role=business";
  if (role === "creator") return "/auth?role=creator";
  return "/auth?role=student";
}
