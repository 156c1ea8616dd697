import * as v from "valibot";
import { emailSchema } from "./account.ts";

/** Institutes' teams: the owner invites creators by e-mail (shared by the business area's forms and the API). */

export const TEAM_STATUSES = ["pending", "accepted", "removed"] as const;
export type TeamStatus = (typeof TEAM_STATUSES)[number];

/** The spec's empty state of the business Account page's 'Team & Analytics' card. */
export const TEAM_EMPTY = "No data yet. Invite your team to get started.";

/** How long an invitation link can be used. */
export const INVITE_TTL_DAYS = 7;

export const InviteInput = v.object({ email: emailSchema });

export const VisibilityInput = v.object({
  hidden: v.boolean("Hidden must be true or false"),
});

/** An invitation link's token (base32, as generateToken makes it); anything else is no invitation. */
export const INVITE_TOKEN = /^[a-z2-7]{32}$/;
export const AcceptInput = v.object({
  token: v.pipe(
    v.optional(v.string("The invitation token is required"), ""),
    v.nonEmpty("The invitation token is required"),
  ),
});

export const INVITE_SELF = "That is your own address. Invite the creators who make content for your institute.";
export const INVITE_NOT_FOUND = "This invitation link is not valid. Ask the institute for a new one.";
export const TEAM_ENTRY_NOT_FOUND = "Team member not found";
export const SITE_ITEM_NOT_FOUND = "This content is not on your site.";
/** Beside a creator's Business choice while no institute has them on its team. */
export const NO_TEAMS_HINT = "Institutes appear here once their owner invites you to their team.";
export const NOT_ON_TEAM =
  "You can only assign content to institutes whose team you are on. Ask the institute's owner to invite you.";

export const alreadyOnTeam = (email: string) => `${email} is already on your team.`;
export const inviteExpired = (institute: string) => `This invitation has expired. Ask ${institute} for a new link.`;
export const inviteWithdrawn = (institute: string) => `${institute} withdrew this invitation.`;
export const INVITE_USED = "This invitation has already been accepted.";
export const inviteForAnother = (email: string) =>
  `This invitation was sent to ${email}. Sign in with that address to accept it.`;
export const inviteCreatorsOnly = (email: string, role: string) =>
  `Only creator accounts can join an institute's team, and ${email} is a ${role} account. Ask the institute to invite the address of your creator account.`;
