import type { Role } from "./validation/account.ts";

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
