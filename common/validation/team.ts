import * as v from "valibot";
import { emailSchema } from "./account.ts";
import { optionalPhoneSchema, toE164 } from "./phone.ts";
import { INVITABLE_ROLES, MEMBER_ROLES, STAFF_DUTIES } from "../memberships.ts";

/** Institutes' teams: the owner invites creators by e-mail (shared by the business area's forms and the API). */

export const TEAM_STATUSES = ["pending", "accepted", "removed"] as const;
export type TeamStatus = (typeof TEAM_STATUSES)[number];

/** The spec's empty state of the business Account page's 'Team & Analytics' card. */
export const TEAM_EMPTY = "No data yet. Invite your team to get started.";

/** How long an invitation link can be used. */
export const INVITE_TTL_DAYS = 7;

export const InviteInput = v.object({ email: emailSchema });

export const INVITE_ADDRESS_MISSING = "Give an e-mail address or a mobile number.";
export const INVITE_ADDRESS_TWICE = "Give an e-mail address or a mobile number, not both.";
export const INVALID_MOBILE = "Please enter a valid mobile number";

/**
 * `POST /api/centers/{id}/members`: who (an e-mail address, or a mobile number, which is kept in
 * E.164) and as what. Exactly one of `email` and `phone`; the other is "" in the result.
 */
export const MemberInviteInput = v.pipe(
  v.object({
    email: v.optional(v.union([v.literal(""), emailSchema], "Please enter a valid email address"), ""),
    phone: v.pipe(
      optionalPhoneSchema(INVALID_MOBILE, "Mobile number"),
      v.transform((typed: string) => (typed === "" ? "" : toE164(typed)!)),
    ),
    role: v.picklist(INVITABLE_ROLES, `Role must be one of: ${INVITABLE_ROLES.join(", ")}`),
    duty: v.optional(v.picklist(STAFF_DUTIES, `Duty must be one of: ${STAFF_DUTIES.join(", ")}`)),
  }),
  v.forward(
    v.check((input) => input.email !== "" || input.phone !== "", INVITE_ADDRESS_MISSING),
    ["email"],
  ),
  v.forward(
    v.check((input) => input.email === "" || input.phone === "", INVITE_ADDRESS_TWICE),
    ["phone"],
  ),
);

/** Who an invitation goes to: an e-mail address, or a mobile number in E.164. */
export type InviteAddress = { email: string } | { phone: string };
export const addressOf = (input: { email: string; phone: string }): InviteAddress =>
  input.email ? { email: input.email } : { phone: input.phone };
export const addressText = (address: InviteAddress) => ("email" in address ? address.email : address.phone);

/** `GET /api/centers/{id}/members?role=`. */
export const MembersQuery = v.object({
  role: v.optional(v.picklist(MEMBER_ROLES, `Role must be one of: ${MEMBER_ROLES.join(", ")}`)),
});

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
/** An address already holding the role it is invited to (creators keep the team's own words). */
export const alreadyInRole = (email: string, role: string) =>
  role === "creator" ? alreadyOnTeam(email) : `${email} is already ${article(role)} ${role} at your institute.`;
export const cannotGrant = (role: string) => `Your role in this institute may not invite ${article(role)} ${role}.`;
export const MEMBER_NOT_FOUND = "Member not found";
export const LAST_OWNER = "An institute needs an owner: its last owner cannot be removed.";
export const ADMINS_NOT_MEMBERS =
  "Admin accounts run the platform and cannot join an institute. Ask the institute to invite another address.";
const article = (word: string) => (/^[aeiou]/i.test(word) ? "an" : "a");
export const inviteExpired = (institute: string) => `This invitation has expired. Ask ${institute} for a new link.`;
export const inviteWithdrawn = (institute: string) => `${institute} withdrew this invitation.`;
export const INVITE_USED = "This invitation has already been accepted.";
export const inviteForAnother = (address: string) =>
  address.includes("@")
    ? `This invitation was sent to ${address}. Sign in with that address to accept it.`
    : `This invitation was sent to ${address}. Sign in with the account that has verified that mobile number (Account, Mobile number) to accept it.`;
export const inviteCreatorsOnly = (email: string, role: string, as = "creator") =>
  as === "creator"
    ? `Only creator accounts can join an institute's team, and ${email} is a ${role} account. Ask the institute to invite the address of your creator account.`
    : `Only creator accounts can join an institute as ${article(as)} ${as}, and ${email} is a ${role} account. Ask the institute to invite the address of your creator account.`;
