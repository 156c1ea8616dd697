import type { MemberRole } from "./memberships.ts";
import type { ContentType } from "./validation/content.ts";
import type { TeamStatus } from "./validation/team.ts";

/** Institutes' teams as the API and the business area show them (client-safe). */

/** One row of an institute's team as its owner sees it. */
export interface TeamEntryJson {
  _id: string;
  /** Where the invitation went or who took it: an e-mail address, or the mobile number (E.164) it was sent to until accepted. */
  address: string;
  status: TeamStatus;
  /** A pending invitation whose link has run out (a new link can be made). */
  expired: boolean;
  /** The member's name once accepted. */
  name: string | null;
  invitedBy: string | null;
  invitedAt: string;
  acceptedAt: string | null;
  removedAt: string | null;
  /** When a pending invitation's link stops working. */
  expiresAt: string | null;
  /** Made a member when teams began, because they already had content on the site (no link was used). */
  joinedBeforeTeams: boolean;
}

/** What an invitation link shows before it is accepted. */
export interface InvitationPreview {
  instituteName: string;
  invitedBy: string | null;
  /** The address it was sent to: an e-mail address, or "" when it went to `phone`. */
  email: string;
  /** The mobile number (E.164) it was sent to, when it went to one. */
  phone: string | null;
  /** The role it invites to (creator, teacher, staff). */
  role: MemberRole;
  state: "open" | "accepted" | "withdrawn" | "expired";
  expiresAt: string | null;
  /** Who accepted it, if anyone. */
  memberId: string | null;
}

/** A content on an institute's site as its owner sees it in the business area. */
export interface SiteItemJson {
  _id: string;
  title: string;
  type: ContentType;
  /** Rupees. */
  price: number;
  creatorName: string;
  creatorEmail: string;
  /** Switched on by its creator. */
  isActive: boolean;
  /** Taken off the site by the owner. */
  hidden: boolean;
  /** Its creator is the owner or an accepted member of the team, or it is a test or series (the institute's own whoever wrote it). */
  onTeam: boolean;
  /** What visitors see: active, not hidden, and its creator on the team. */
  shown: boolean;
  createdAt: string;
}
