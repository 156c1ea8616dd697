import { and, asc, desc, eq, inArray, isNotNull, isNull, ne, notInArray, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { MessageService } from "../messages/service.ts";
import type { SiteLinks } from "../messages/links.ts";
import { centers, contents, memberships, users } from "../db/schema/index.ts";
import type { Db, DbOrTx } from "../db/types.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { readTags, type ReadCache, type ReadCaches } from "../caches/read-cache.ts";
import { generateToken, hashToken } from "../auth/tokens.ts";
import { can, mayGrant, membershipOf, rolesThatMay, type Membership } from "../auth/permissions.ts";
import { HttpError, badRequest, conflict, forbidden, notFound, parseWith } from "../http/errors.ts";
import { RATE_RULES, type RateLimiter } from "./rate-limit.ts";
import { tooMany } from "./accounts.ts";
import { isUuid } from "#common/validation/ids.ts";
import type { Role } from "#common/validation/account.ts";
import {
  CREATOR_AREA_ACTIONS,
  MEMBER_ROLES,
  OWN_WORK_KEY,
  OWN_WORK_NAME,
  ROLE_LABELS,
  SWITCH_NOT_YOURS,
  membershipKey,
  type MemberJson,
  type MemberRole,
  type MemberStatus,
  type MembershipJson,
} from "#common/memberships.ts";
import type { InvitationPreview } from "#common/team-types.ts";
import {
  ADMINS_NOT_MEMBERS,
  INVITE_NOT_FOUND,
  INVITE_SELF,
  INVITE_TOKEN,
  INVITE_TTL_DAYS,
  INVITE_USED,
  LAST_OWNER,
  MEMBER_NOT_FOUND,
  MemberInviteInput,
  MembersQuery,
  addressOf,
  addressText,
  alreadyInRole,
  cannotGrant,
  inviteCreatorsOnly,
  inviteExpired,
  inviteForAnother,
  inviteWithdrawn,
  type InviteAddress,
} from "#common/validation/team.ts";
import { PLATFORM_NAME } from "#common/platform-name.ts";
import type { Site } from "./tenants.ts";

const DAY = 24 * 60 * 60 * 1000;
export const INVITE_TTL_MS = INVITE_TTL_DAYS * DAY;

export interface MembersServiceDeps {
  db: Db;
  rateLimiter: RateLimiter;
  reads: ReadCaches;
  /** Tells the institute's site that what it lists has changed (a creator joined or left). */
  catalogChanged: (centerId: string) => void;
  messages: MessageService;
  /** Invitation links lead to the platform, where accounts live. */
  links: SiteLinks;
  now?: () => number;
}

/** The person inviting or accepting. */
export interface MemberActor {
  id: string;
  email: string;
  role: Role;
  name?: string;
}

/** An invitation made: its row, the link's token (sent, never kept) and the link. */
export interface InvitationMade {
  id: string;
  token: string;
  link: string;
  renewed: boolean;
}

/** Roles whose invitations only a creator account can take: they work in the creator area. */
const CREATOR_AREA_ROLES: readonly MemberRole[] = ["creator", "teacher"];

const inviter = alias(users, "inviter");
const member = alias(users, "member");

/** Where no desk is chosen: an institute's own domain (its rows are that institute's already) and the platform's admins. */
const deskless = (user: { role: Role }, site: Site) => site.kind === "tenant" || user.role === "admin";

/** `MemberService.creatorDesk`'s choice among the person's desks (`creatorDesks`), for a caller that has read them already. */
export function deskAmong(
  desks: readonly { id: string }[],
  user: { role: Role },
  site: Site,
  chosen: string | null,
): string | null {
  if (deskless(user, site)) return null;
  const picked = desks.find((d) => d.id === chosen);
  if (picked) return picked.id;
  return user.role === "creator" ? null : (desks[0]?.id ?? null);
}

/**
 * People's roles in institutes (issue 40, decision 0039): invitations by e-mail to a role, their
 * acceptance, the members list and removals (kept as history), and each person's own roles for
 * the header. What a caller may do is decided by server/auth/permissions.ts before anything here
 * runs; the grant rules (who may invite whom) are checked here, on the row being made.
 */
export class MembersService {
  private readonly db: Db;
  private readonly deps: MembersServiceDeps;
  private readonly now: () => number;
  /** Each person's live roles (`mine`), institute by institute. */
  private readonly mineKept: ReadCache<
    { id: string; centerId: string; institute: string; role: MemberRole; duty: string | null }[]
  >;

  constructor(deps: MembersServiceDeps) {
    this.deps = deps;
    this.db = deps.db;
    this.now = deps.now ?? Date.now;
    this.mineKept = deps.reads.create();
  }

  /** `inviteMember` for a page: the inviter's roles in the institute are looked up and must allow inviting. */
  async inviteAt(actor: MemberActor, centerId: string, input: unknown): Promise<InvitationMade> {
    const membership = await membershipOf(this.db, actor.id, centerId);
    if (!membership || !can(membership, "members.invite"))
      throw forbidden("Your role in this institute does not allow this (members.invite).");
    return this.inviteMember(actor, membership, input);
  }

  /** Invites an address or a mobile number to a role (`MemberInviteInput`) on behalf of a member who may invite. */
  async inviteMember(actor: MemberActor, membership: Membership, input: unknown): Promise<InvitationMade> {
    const parsed = parseWith(MemberInviteInput, input);
    const { role, duty } = parsed;
    if (!mayGrant(membership, role)) throw forbidden(cannotGrant(role));
    const center = { id: membership.centerId, instituteName: membership.instituteName };
    return this.invite(actor, center, addressOf(parsed), role, { duty: role === "staff" ? (duty ?? null) : null });
  }

  /**
   * Writes the invitation and its message (an e-mail; WhatsApp and SMS to a mobile number, under
   * the recipient policy's limits per number and day) in one transaction. Inviting an address
   * with an open invitation to that role makes a fresh link (the old one stops working); an
   * address already holding the role there is a 409 and changes nothing.
   */
  async invite(
    actor: MemberActor,
    center: { id: string; instituteName: string },
    address: InviteAddress,
    role: MemberRole,
    extra: { duty: string | null } = { duty: null },
  ): Promise<InvitationMade> {
    const field = "email" in address ? "email" : "phone";
    const refuseSelf = () => badRequest(INVITE_SELF, { issues: [{ field, message: INVITE_SELF }] });
    if ("email" in address && address.email === actor.email.toLowerCase()) throw refuseSelf();
    if ("phone" in address && (await this.verifiedPhoneOf(this.db, actor.id)) === address.phone) throw refuseSelf();
    const limit = await this.deps.rateLimiter.hit(RATE_RULES.teamInviteUser, actor.id);
    if (!limit.allowed) throw tooMany(limit.retryAfter);
    const token = generateToken();
    const tokenHash = hashToken(token);
    const now = new Date(this.now());
    const tokenExpiresAt = new Date(now.getTime() + INVITE_TTL_MS);
    const link = this.deps.links.to(null, `/invite/${token}`);
    try {
      const outcome = await this.db.transaction(async (tx) => {
        const open = await tx
          .select({ id: memberships.id, status: memberships.status })
          .from(memberships)
          .where(
            and(
              eq(memberships.centerId, center.id),
              eq(memberships.role, role),
              ne(memberships.status, "removed"),
              "email" in address
                ? or(
                    eq(memberships.email, address.email),
                    inArray(
                      memberships.userId,
                      tx.select({ id: users.id }).from(users).where(eq(users.email, address.email)),
                    ),
                  )
                : or(
                    eq(memberships.phone, address.phone),
                    inArray(
                      memberships.userId,
                      tx
                        .select({ id: users.id })
                        .from(users)
                        .where(and(eq(users.phone, address.phone), isNotNull(users.phoneVerifiedAt))),
                    ),
                  ),
            ),
          )
          .for("update");
        if (open.some((row) => row.status === "active")) throw conflict(alreadyInRole(addressText(address), role));
        const pending = open.find((row) => row.status === "invited");
        await this.deps.messages.send(tx, {
          template: "team-invitation",
          values: {
            institute: center.instituteName,
            inviter: actor.name ?? actor.email,
            role: role === "creator" ? "" : ROLE_LABELS[role].toLowerCase(),
            link,
          },
          to: address,
          centerId: center.id,
        });
        if (pending) {
          await tx
            .update(memberships)
            .set({ tokenHash, tokenExpiresAt, invitedById: actor.id, invitedAt: now, updatedAt: now, duty: extra.duty })
            .where(eq(memberships.id, pending.id));
          return { id: pending.id, renewed: true };
        }
        const [created] = await tx
          .insert(memberships)
          .values({
            centerId: center.id,
            role,
            duty: extra.duty,
            ...address,
            invitedById: actor.id,
            status: "invited",
            tokenHash,
            tokenExpiresAt,
            invitedAt: now,
          })
          .returning({ id: memberships.id });
        return { id: created.id, renewed: false };
      });
      return { ...outcome, token, link };
    } catch (error) {
      // Two invitations of one address at once: the other one made it.
      if (
        isUniqueViolation(error, "memberships_invited_email_key") ||
        isUniqueViolation(error, "memberships_invited_phone_key")
      )
        throw conflict(`An invitation to ${addressText(address)} was just made. Refresh the page to see it.`);
      throw error;
    }
  }

  /** The institute's members and invitations (of one role, or all): invitations first, then members, then history. */
  async list(centerId: string, query: unknown = {}): Promise<MemberJson[]> {
    const { role } = parseWith(MembersQuery, query);
    return this.rows(centerId, { role });
  }

  async one(centerId: string, id: string): Promise<MemberJson | undefined> {
    return (await this.rows(centerId, { id }))[0];
  }

  private async rows(centerId: string, by: { role?: MemberRole; id?: string }): Promise<MemberJson[]> {
    const rows = await this.db
      .select({
        id: memberships.id,
        role: memberships.role,
        duty: memberships.duty,
        status: memberships.status,
        email: memberships.email,
        phone: memberships.phone,
        name: member.name,
        memberEmail: member.email,
        inviterName: inviter.name,
        tokenExpiresAt: memberships.tokenExpiresAt,
        invitedAt: memberships.invitedAt,
        acceptedAt: memberships.acceptedAt,
        removedAt: memberships.removedAt,
      })
      .from(memberships)
      .leftJoin(member, eq(member.id, memberships.userId))
      .leftJoin(inviter, eq(inviter.id, memberships.invitedById))
      .where(
        and(
          eq(memberships.centerId, centerId),
          by.role ? eq(memberships.role, by.role) : undefined,
          by.id ? eq(memberships.id, by.id) : undefined,
        ),
      )
      .orderBy(
        sql`case ${memberships.status} when 'invited' then 0 when 'active' then 1 else 2 end`,
        sql`array_position(array[${sql.raw(MEMBER_ROLES.map((r) => `'${r}'`).join(","))}]::member_role[], ${memberships.role})`,
        desc(
          sql`coalesce(${memberships.removedAt}, ${memberships.acceptedAt}, ${memberships.invitedAt}, ${memberships.createdAt})`,
        ),
        asc(memberships.id),
      );
    const now = this.now();
    return rows.map((r) => ({
      _id: r.id,
      role: r.role,
      duty: r.duty,
      status: r.status,
      name: r.name,
      email: r.memberEmail ?? r.email,
      phone: r.phone,
      invitedBy: r.inviterName,
      invitedAt: r.invitedAt?.toISOString() ?? null,
      acceptedAt: r.acceptedAt?.toISOString() ?? null,
      removedAt: r.removedAt?.toISOString() ?? null,
      expiresAt: r.status === "invited" ? (r.tokenExpiresAt?.toISOString() ?? null) : null,
      expired: r.status === "invited" && (!r.tokenExpiresAt || r.tokenExpiresAt.getTime() <= now),
    }));
  }

  /**
   * Withdraws an invitation or removes a member, kept as history. An institute keeps at least one
   * owner. A creator's content leaves the institute at once (unassigned, off its site); tests and
   * series stay, being the institute's own (decision 0029). `onlyRole` keeps a caller to one role's rows.
   */
  async remove(centerId: string, id: string, onlyRole?: MemberRole): Promise<MemberJson> {
    if (!isUuid(id)) throw notFound(MEMBER_NOT_FOUND);
    const now = new Date(this.now());
    const outcome = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ id: memberships.id, status: memberships.status, role: memberships.role, userId: memberships.userId })
        .from(memberships)
        .where(
          and(
            eq(memberships.id, id),
            eq(memberships.centerId, centerId),
            onlyRole ? eq(memberships.role, onlyRole) : undefined,
          ),
        )
        .for("update");
      if (!row) throw notFound(MEMBER_NOT_FOUND);
      // `moved` is null unless a live creator left: only then do content and the catalog change.
      const none = { userId: null, moved: null };
      if (row.status === "removed") return none;
      if (row.role === "owner" && row.status === "active") {
        // Owners' rows are locked in one order, so two owners removing each other cannot both pass.
        const owners = await tx
          .select({ id: memberships.id })
          .from(memberships)
          .where(
            and(eq(memberships.centerId, centerId), eq(memberships.role, "owner"), eq(memberships.status, "active")),
          )
          .orderBy(asc(memberships.id))
          .for("update");
        if (owners.length <= 1) throw conflict(LAST_OWNER);
      }
      await tx
        .update(memberships)
        .set({ status: "removed", removedAt: now, updatedAt: now })
        .where(eq(memberships.id, row.id));
      // The person's roles changed (their switcher, kept by `mine`): forgotten below, whatever the role.
      if (row.role !== "creator" || row.status !== "active" || !row.userId) return { userId: row.userId, moved: null };
      // Assigning locks the membership row (lockMembership), so nothing is assigned under this.
      const moved = await tx
        .update(contents)
        .set({ centerId: null, updatedAt: now })
        // Archived content is on no site already; it stays where it was sold, for the figures.
        // Tests and series are the institute's, not their author's (decision 0029): they stay.
        .where(
          and(
            eq(contents.centerId, centerId),
            eq(contents.creatorId, row.userId),
            isNull(contents.archivedAt),
            notInArray(contents.type, ["test", "series"]),
          ),
        )
        .returning({ id: contents.id });
      return { userId: row.userId, moved: moved.map((m) => m.id) };
    });
    if (outcome.userId) this.deps.reads.forget(readTags.creator(outcome.userId));
    if (outcome.moved) {
      this.deps.reads.forget(readTags.center(centerId), ...outcome.moved.map(readTags.content));
      this.deps.catalogChanged(centerId);
    }
    const removed = await this.one(centerId, id);
    if (!removed) throw notFound(MEMBER_NOT_FOUND);
    return removed;
  }

  /** What an invitation link shows: which institute and role, who invited, which address, and whether it can still be accepted. */
  async preview(token: string): Promise<InvitationPreview> {
    const row = await this.byToken(this.db, token);
    if (!row) throw notFound(INVITE_NOT_FOUND);
    return {
      instituteName: row.instituteName,
      invitedBy: row.inviterName,
      email: row.email ?? "",
      phone: row.phone,
      role: row.role,
      state: stateOf(row, this.now()),
      expiresAt: row.tokenExpiresAt?.toISOString() ?? null,
      memberId: row.userId,
    };
  }

  /**
   * Accepts an invitation for the signed-in `user`: only the account with the invited address,
   * within the link's life; creators' and teachers' invitations need a creator account (they work
   * in the creator area), and an admin account joins no institute. Accepting again is harmless.
   */
  async accept(
    user: MemberActor,
    token: string,
  ): Promise<{ center: { id: string; instituteName: string }; role: MemberRole; alreadyMember: boolean }> {
    const outcome = await this.db.transaction(async (tx) => {
      const row = await this.byToken(tx, token, true);
      if (!row) throw notFound(INVITE_NOT_FOUND);
      const center = { id: row.centerId, instituteName: row.instituteName };
      const role = row.role;
      const state = stateOf(row, this.now());
      if (state === "withdrawn") throw new HttpError(410, inviteWithdrawn(row.instituteName));
      if (state === "accepted") {
        if (row.userId === user.id) return { center, role, alreadyMember: true };
        throw conflict(INVITE_USED);
      }
      if (state === "expired") throw new HttpError(410, inviteExpired(row.instituteName));
      const invited = row.phone ?? row.email ?? "";
      if (!(await this.holdsAddress(user, row, tx))) throw forbidden(inviteForAnother(invited));
      if (CREATOR_AREA_ROLES.includes(role) && user.role !== "creator")
        throw forbidden(inviteCreatorsOnly(invited, user.role, role));
      if (user.role === "admin") throw forbidden(ADMINS_NOT_MEMBERS);
      const now = new Date(this.now());
      const [already] = await tx
        .select({ id: memberships.id })
        .from(memberships)
        .where(
          and(
            eq(memberships.centerId, row.centerId),
            eq(memberships.userId, user.id),
            eq(memberships.role, role),
            eq(memberships.status, "active"),
          ),
        );
      if (already) {
        // Holds the role through another address: this invitation is not needed.
        await tx
          .update(memberships)
          .set({ status: "removed", removedAt: now, updatedAt: now })
          .where(eq(memberships.id, row.id));
        return { center, role, alreadyMember: true };
      }
      await tx
        .update(memberships)
        .set({ status: "active", userId: user.id, acceptedAt: now, updatedAt: now })
        .where(eq(memberships.id, row.id));
      return { center, role, alreadyMember: false };
    });
    // The person's roles changed (their switcher, kept by `mine`), whatever the role.
    this.deps.reads.forget(readTags.creator(user.id));
    if (!outcome.alreadyMember && outcome.role === "creator") {
      this.deps.catalogChanged(outcome.center.id);
    }
    return outcome;
  }

  /**
   * Whether the account holds the address an invitation was sent to: its e-mail, or its mobile
   * number once verified (a number typed into an account proves nothing until its code is entered).
   */
  async holdsAddress(
    user: { id: string; email: string },
    invited: { email: string | null; phone: string | null },
    db: DbOrTx = this.db,
  ): Promise<boolean> {
    if (invited.phone) return (await this.verifiedPhoneOf(db, user.id)) === invited.phone;
    return user.email.toLowerCase() === invited.email;
  }

  private async verifiedPhoneOf(db: DbOrTx, userId: string): Promise<string | null> {
    const [row] = await db
      .select({ phone: users.phone })
      .from(users)
      .where(and(eq(users.id, userId), isNotNull(users.phoneVerifiedAt)));
    return row?.phone ?? null;
  }

  private async byToken(db: DbOrTx, token: string, lock = false) {
    if (!INVITE_TOKEN.test(token)) return undefined;
    const query = db
      .select({
        id: memberships.id,
        centerId: memberships.centerId,
        role: memberships.role,
        email: memberships.email,
        phone: memberships.phone,
        status: memberships.status,
        userId: memberships.userId,
        tokenExpiresAt: memberships.tokenExpiresAt,
        instituteName: centers.instituteName,
        inviterName: inviter.name,
      })
      .from(memberships)
      .innerJoin(centers, eq(centers.id, memberships.centerId))
      .leftJoin(inviter, eq(inviter.id, memberships.invitedById))
      .where(eq(memberships.tokenHash, hashToken(token)));
    const [row] = lock ? await query.for("update", { of: memberships }) : await query;
    return row;
  }

  /** One of the caller's own live roles by its switcher key (`membershipKey`), or 403: the header's choice is checked here. */
  async choose(user: { id: string; role: Role }, key: string): Promise<MembershipJson> {
    if (key === OWN_WORK_KEY && user.role === "creator")
      return { _id: null, centerId: null, institute: OWN_WORK_NAME, role: "creator", duty: null };
    const chosen = (await this.mine(user)).find((m) => membershipKey(m) === key);
    if (!chosen) throw forbidden(SWITCH_NOT_YOURS);
    return chosen;
  }

  /**
   * The institutes whose creator area the person works in (issue 40): those where they hold a live
   * role the policy lets write content or tests (owner, creator, teacher), by name.
   */
  async creatorDesks(userId: string): Promise<{ id: string; name: string }[]> {
    // Read live, not from the kept roles: the desk decides where new work is filed, so a role given
    // a moment ago (its announcement still on its way) must count at once.
    const roles = [...new Set(CREATOR_AREA_ACTIONS.flatMap((action) => rolesThatMay(action)))];
    const rows = await this.db
      .selectDistinct({
        id: centers.id,
        name: centers.instituteName,
        lower: sql<string>`lower(${centers.instituteName})`,
      })
      .from(memberships)
      .innerJoin(centers, eq(centers.id, memberships.centerId))
      .where(and(eq(memberships.userId, userId), eq(memberships.status, "active"), inArray(memberships.role, roles)))
      .orderBy(sql`lower(${centers.instituteName})`, asc(centers.id));
    return rows.map(({ id, name }) => ({ id, name }));
  }

  /**
   * The institute the creator area works on for the person, its "desk" (decision 0039): the one
   * chosen in the header (`chosen`, the `pathshala_as` cookie's) while they work there; with no
   * such choice, none for a creator account (their own work by authorship, as before institutes)
   * and the first where they work for anyone else (an owner). Null also on an institute's own
   * domain, whose rows are that institute's already, and for admins (the platform's).
   */
  async creatorDesk(user: { id: string; role: Role }, site: Site, chosen: string | null): Promise<string | null> {
    return deskless(user, site) ? null : deskAmong(await this.creatorDesks(user.id), user, site, chosen);
  }

  /** The person's live roles in one institute (null: no such institute), for the policy to decide with (`can`). */
  async standing(userId: string, centerId: string): Promise<Membership | null> {
    return membershipOf(this.db, userId, centerId);
  }

  /**
   * The caller's live roles, institute by institute (the header's switcher and
   * `GET /api/me/memberships`); a platform admin's own role comes first.
   */
  async mine(user: { id: string; role: Role }): Promise<MembershipJson[]> {
    const rows = await this.rolesOf(user.id);
    const admin: MembershipJson[] =
      user.role === "admin" ? [{ _id: null, centerId: null, institute: PLATFORM_NAME, role: "admin", duty: null }] : [];
    return [...admin, ...rows.map((r) => ({ _id: r.id, ...r }))];
  }

  /**
   * The person's live roles in institutes, by institute name, then id, then role: kept until their
   * memberships (announced as "creator:<id>", migration 0029) or one of those institutes (its name)
   * changes, since every signed-in page's switcher asks for them.
   */
  private rolesOf(userId: string) {
    return this.mineKept.read(
      userId,
      () =>
        this.db
          .select({
            id: memberships.id,
            centerId: memberships.centerId,
            institute: centers.instituteName,
            role: memberships.role,
            duty: memberships.duty,
          })
          .from(memberships)
          .innerJoin(centers, eq(centers.id, memberships.centerId))
          .where(and(eq(memberships.userId, userId), eq(memberships.status, "active")))
          .orderBy(
            asc(sql`lower(${centers.instituteName})`),
            asc(centers.id),
            sql`array_position(array[${sql.raw(MEMBER_ROLES.map((r) => `'${r}'`).join(","))}]::member_role[], ${memberships.role})`,
          ),
      (found) => [readTags.creator(userId), ...found.map((row) => readTags.center(row.centerId))],
    );
  }
}

/**
 * Whether `userId` holds a live role in the institute that may put content there (content.write:
 * a creator, an owner), holding the membership row (shared
 * lock) until the transaction ends, so a removal waits for an assignment and then takes its
 * content off too (MembersService.remove).
 */
export async function lockMembership(tx: DbOrTx, centerId: string, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: memberships.id })
    .from(memberships)
    .where(
      and(
        eq(memberships.centerId, centerId),
        eq(memberships.userId, userId),
        inArray(memberships.role, rolesThatMay("content.write")),
        eq(memberships.status, "active"),
      ),
    )
    .for("share");
  return Boolean(row);
}

export function stateOf(
  row: { status: MemberStatus; tokenExpiresAt: Date | null },
  now: number,
): InvitationPreview["state"] {
  if (row.status === "removed") return "withdrawn";
  if (row.status === "active") return "accepted";
  return !row.tokenExpiresAt || row.tokenExpiresAt.getTime() <= now ? "expired" : "open";
}
