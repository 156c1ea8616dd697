import type { Role } from "#common/validation/account.ts";

/** The signed-in person as every page may see them. */
export interface Viewer {
  id: string;
  name: string;
  email: string;
  role: Role;
  avatarUrl: string | null;
}

/** The site a page is served on, as the UI needs it (branding on institutes' domains). */
export type PublicSite =
  | { kind: "platform"; host: string }
  | {
      kind: "tenant";
      host: string;
      centerId: string;
      instituteName: string;
      brandColor: string | null;
      logoUrl: string | null;
    };

export type Theme = "light" | "dark" | "system";
