import type { MessageService } from "../messages/service.ts";
import type { SiteLinks } from "../messages/links.ts";
import { and, asc, desc, eq, isNull, ne, notInArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { centers, contents, hiddenContents, teamMembers, users } from "../db/schema/index.ts";
import type { Db, DbOrTx } from "../db/types.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { readTags, type ReadCache, type ReadCaches } from "../caches/read-cache.ts";
import { generateToken, hashToken } from "../auth/tokens.ts";
import { HttpError, badRequest, conflict, forbidden, notFound, parseWith } from "../http/errors.ts";
import { RATE_RULES, type RateLimiter } from "./rate-limit.ts";
import { tooMany } from "./accounts.ts";
import { isCenterLive } from "./tenants.ts";
import { isUuid } from "#common/validation/content.ts";
import type { InvitationPreview, SiteItemJson, TeamEntryJson } from "#common/team-types.ts";
import type { Role } from "#common/validation/account.ts";
import {
  INVITE_NOT_FOUND,
  INVITE_SELF,
  INVITE_TOKEN,
  INVITE_TTL_DAYS,
  INVITE_USED,
  InviteInput,
  SITE_ITEM_NOT_FOUND,
  TEAM_ENTRY_NOT_FOUND,
  VisibilityInput,
  alreadyOnTeam,
  inviteCreatorsOnly,
  inviteExpired,
  inviteForAnother,
  inviteWithdrawn,
  type TeamStatus,
} from "#common/validation/team.ts";

const DAY = 24 * 60 * 60 * 1000;
export const INVITE_TTL_MS = INVITE_TTL_DAYS * DAY;

/** The institute a team belongs to (the owner's current center). */
export interface TeamCenter {
  id: string;
  instituteName: string;
}

export interface TeamServiceDeps {
  db: Db;
  rateLimiter: RateLimiter;
  reads: ReadCaches;
  /** Tells the institute's site (home page, public catalog) that what it lists has changed. */
  catalogChanged: (centerId: string) => void;
  messages: MessageService;
  /** Invitation links lead to the platform, where creators' accounts live. */
  links: SiteLinks;
  now?: () => number;
}

/** The account accepting an invitation (or the owner making one). */
export interface TeamActor {
  id: string;
  email: string;
  role: Role;
  name?: string;
}

const inviter = alias(users, "inviter");
const member = alias(users, "member");

const entryColumns = {
  id: teamMembers.id,
  email: teamMembers.email,
  status: teamMembers.status,
  tokenHash: teamMembers.tokenHash,
  tokenExpiresAt: teamMembers.tokenExpiresAt,
  invitedAt: teamMembers.invitedAt,
  acceptedAt: teamMembers.acceptedAt,
  removedAt: teamMembers.removedAt,
  memberName: member.name,
  inviterName: inviter.name,
};
interface EntryRow {
  id: string;
  email: string;
  status: TeamStatus;
  tokenHash: string | null;
  tokenExpiresAt: Date | null;
  invitedAt: Date;
  acceptedAt: Date | null;
  removedAt: Date | null;
  memberName: string | null;
  inviterName: string | null;
}

/**
 * Institutes' teams (issue 26): the owner invites creators by e-mail, each invitation a link
 * the creator accepts while signed in with that address; only members may assign content to the
 * institute, and only members' content is on its site (site-visibility.ts). The owner sees every
 * item on the site and can hide any of them; removing a member takes their items off at once.
 * The API and the business area's pages both come here.
 */
/** An institute a creator's team membership names, as the Business dropdown needs it. */
interface MembershipRow {
  id: string;
  name: string;
  status: (typeof centers.$inferSelect)["status"];
  expiresAt: Date | null;
}

export class TeamService {
  private readonly db: Db;
  private readonly deps: TeamServiceDeps;
  private readonly now: () => number;
  /** Each creator's accepted memberships, asked for on every Contents and Upload page. */
  private readonly membershipsKept: ReadCache<MembershipRow[]>;

  constructor(deps: TeamServiceDeps) {
    this.deps = deps;
    this.db = deps.db;
    this.now = deps.now ?? Date.now;
    this.membershipsKept = deps.reads.create();
  }

  /**
   * Invites `input.email` to the institute's team and returns the link to send. Inviting an
   * address that has a pending invitation makes a fresh link (the old one stops working);
   * an address already on the team is a 409. The invitation is e-mailed with the link.
   */
  async invite(
    owner: TeamActor,
    center: TeamCenter,
    input: unknown,
  ): Promise<{ entry: TeamEntryJson; token: string; link: string; renewed: boolean }> {
    const { email } = parseWith(InviteInput, input);
    if (email === owner.email.toLowerCase())
      throw badRequest(INVITE_SELF, { issues: [{ field: "email", message: INVITE_SELF }] });
    const limit = await this.deps.rateLimiter.hit(RATE_RULES.teamInviteUser, owner.id);
    if (!limit.allowed) throw tooMany(limit.retryAfter);
    const token = generateToken();
    const tokenHash = hashToken(token);
    const now = new Date(this.now());
    const tokenExpiresAt = new Date(now.getTime() + INVITE_TTL_MS);
    let outcome: { id: string; renewed: boolean };
    try {
      outcome = await this.db.transaction(async (tx) => {
        const [open] = await tx
          .select({ id: teamMembers.id, status: teamMembers.status })
          .from(teamMembers)
          .where(
            and(eq(teamMembers.centerId, center.id), eq(teamMembers.email, email), ne(teamMembers.status, "removed")),
          )
          .for("update");
        if (open?.status === "accepted") throw conflict(alreadyOnTeam(email));
        await this.deps.messages.send(tx, {
          template: "team-invitation",
          values: {
            institute: center.instituteName,
            inviter: owner.name ?? owner.email,
            link: this.invitationLink(token),
          },
          to: { email },
          centerId: center.id,
        });
        if (open) {
          await tx
            .update(teamMembers)
            .set({ tokenHash, tokenExpiresAt, invitedById: owner.id, invitedAt: now, updatedAt: now })
            .where(eq(teamMembers.id, open.id));
          return { id: open.id, renewed: true };
        }
        const [created] = await tx
          .insert(teamMembers)
          .values({
            centerId: center.id,
            email,
            invitedById: owner.id,
            status: "pending",
            tokenHash,
            tokenExpiresAt,
            invitedAt: now,
          })
          .returning({ id: teamMembers.id });
        return { id: created.id, renewed: false };
      });
    } catch (error) {
      // Two invitations of one address at once: the other one made it.
      if (isUniqueViolation(error, "team_members_center_email_key"))
        throw conflict(`An invitation to ${email} was just made. Refresh the page to see it.`);
      throw error;
    }
    const entry = (await this.entries(center.id, outcome.id))[0];
    return { entry, token, link: this.invitationLink(token), renewed: outcome.renewed };
  }

  /** The institute's team: pending invitations, members, then removed ones (newest first in each). */
  async list(centerId: string): Promise<TeamEntryJson[]> {
    return this.entries(centerId);
  }

  /** How many members and open invitations an institute has (the Account page's 'Team & Analytics' card). */
  async summary(centerId: string): Promise<{ members: number; pending: number }> {
    const [row] = await this.db
      .select({
        members: sql<number>`count(*) filter (where ${teamMembers.status} = 'accepted')`.mapWith(Number),
        pending:
          sql<number>`count(*) filter (where ${teamMembers.status} = 'pending' and ${teamMembers.tokenExpiresAt} > now())`.mapWith(
            Number,
          ),
      })
      .from(teamMembers)
      .where(eq(teamMembers.centerId, centerId));
    return { members: row?.members ?? 0, pending: row?.pending ?? 0 };
  }

  /** The page an invitation link opens: on the platform, where creators' accounts live. */
  private invitationLink(token: string): string {
    return this.deps.links.to(null, `/invite/${token}`);
  }

  private async entries(centerId: string, id?: string): Promise<TeamEntryJson[]> {
    const rows: EntryRow[] = await this.db
      .select(entryColumns)
      .from(teamMembers)
      .leftJoin(member, eq(member.id, teamMembers.memberId))
      .leftJoin(inviter, eq(inviter.id, teamMembers.invitedById))
      .where(and(eq(teamMembers.centerId, centerId), id ? eq(teamMembers.id, id) : undefined))
      .orderBy(
        sql`case ${teamMembers.status} when 'pending' then 0 when 'accepted' then 1 else 2 end`,
        desc(sql`coalesce(${teamMembers.removedAt}, ${teamMembers.acceptedAt}, ${teamMembers.invitedAt})`),
        asc(teamMembers.email),
      );
    const now = this.now();
    return rows.map((r) => toEntryJson(r, now));
  }

  /**
   * Revokes a pending invitation or removes a member (the link then says the institute withdrew
   * it). A removed member's content leaves the institute at once: unassigned, off its site. Their
   * tests and series stay: an institute's exams are its own (decision 0029).
   */
  async remove(centerId: string, entryId: string): Promise<TeamEntryJson> {
    if (!isUuid(entryId)) throw notFound(TEAM_ENTRY_NOT_FOUND);
    const now = new Date(this.now());
    const outcome = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ id: teamMembers.id, status: teamMembers.status, memberId: teamMembers.memberId })
        .from(teamMembers)
        .where(and(eq(teamMembers.id, entryId), eq(teamMembers.centerId, centerId)))
        .for("update");
      if (!row) throw notFound(TEAM_ENTRY_NOT_FOUND);
      if (row.status === "removed") return { memberId: null, moved: [] as string[] };
      await tx
        .update(teamMembers)
        .set({ status: "removed", removedAt: now, updatedAt: now })
        .where(eq(teamMembers.id, row.id));
      if (row.status !== "accepted" || !row.memberId) return { memberId: null, moved: [] as string[] };
      // Assigning locks the membership row (lockMembership), so nothing is assigned under this.
      const moved = await tx
        .update(contents)
        .set({ centerId: null, updatedAt: now })
        // Archived content is on no site already; it stays where it was sold, for the figures.
        // Tests and series are the institute's, not their author's (decision 0029): they stay.
        .where(
          and(
            eq(contents.centerId, centerId),
            eq(contents.creatorId, row.memberId),
            isNull(contents.archivedAt),
            notInArray(contents.type, ["test", "series"]),
          ),
        )
        .returning({ id: contents.id });
      return { memberId: row.memberId, moved: moved.map((m) => m.id) };
    });
    if (outcome.memberId) {
      this.deps.reads.forget(
        readTags.creator(outcome.memberId),
        readTags.center(centerId),
        ...outcome.moved.map(readTags.content),
      );
      this.deps.catalogChanged(centerId);
    }
    return (await this.entries(centerId, entryId))[0];
  }

  /** What an invitation link shows: which institute, who invited, which address, and whether it can still be accepted. */
  async preview(token: string): Promise<InvitationPreview> {
    const row = await this.byToken(this.db, token);
    if (!row) throw notFound(INVITE_NOT_FOUND);
    return {
      instituteName: row.instituteName,
      invitedBy: row.inviterName,
      email: row.email,
      state: stateOf(row, this.now()),
      expiresAt: row.tokenExpiresAt?.toISOString() ?? null,
      memberId: row.memberId,
    };
  }

  /**
   * Accepts an invitation for the signed-in `user`: only the account with the invited address,
   * and only a creator account, within the link's life. Accepting again is harmless.
   */
  async accept(user: TeamActor, token: string): Promise<{ center: TeamCenter; alreadyMember: boolean }> {
    const outcome = await this.db.transaction(async (tx) => {
      const row = await this.byToken(tx, token, true);
      if (!row) throw notFound(INVITE_NOT_FOUND);
      const center = { id: row.centerId, instituteName: row.instituteName };
      const state = stateOf(row, this.now());
      if (state === "withdrawn") throw new HttpError(410, inviteWithdrawn(row.instituteName));
      if (state === "accepted") {
        if (row.memberId === user.id) return { center, alreadyMember: true };
        throw conflict(INVITE_USED);
      }
      if (state === "expired") throw new HttpError(410, inviteExpired(row.instituteName));
      if (user.email.toLowerCase() !== row.email) throw forbidden(inviteForAnother(row.email));
      if (user.role !== "creator") throw forbidden(inviteCreatorsOnly(row.email, user.role));
      const [already] = await tx
        .select({ id: teamMembers.id })
        .from(teamMembers)
        .where(
          and(
            eq(teamMembers.centerId, row.centerId),
            eq(teamMembers.memberId, user.id),
            eq(teamMembers.status, "accepted"),
          ),
        );
      if (already) {
        // On the team through another address: this invitation is not needed.
        await tx
          .update(teamMembers)
          .set({ status: "removed", removedAt: new Date(this.now()), updatedAt: new Date(this.now()) })
          .where(eq(teamMembers.id, row.id));
        return { center, alreadyMember: true };
      }
      const now = new Date(this.now());
      await tx
        .update(teamMembers)
        .set({ status: "accepted", memberId: user.id, acceptedAt: now, updatedAt: now })
        .where(eq(teamMembers.id, row.id));
      return { center, alreadyMember: false };
    });
    if (!outcome.alreadyMember) {
      this.deps.reads.forget(readTags.creator(user.id));
      this.deps.catalogChanged(outcome.center.id);
    }
    return outcome;
  }

  private async byToken(db: DbOrTx, token: string, lock = false) {
    if (!INVITE_TOKEN.test(token)) return undefined;
    const query = db
      .select({
        id: teamMembers.id,
        centerId: teamMembers.centerId,
        email: teamMembers.email,
        status: teamMembers.status,
        memberId: teamMembers.memberId,
        tokenExpiresAt: teamMembers.tokenExpiresAt,
        instituteName: centers.instituteName,
        inviterName: inviter.name,
      })
      .from(teamMembers)
      .innerJoin(centers, eq(centers.id, teamMembers.centerId))
      .leftJoin(inviter, eq(inviter.id, teamMembers.invitedById))
      .where(eq(teamMembers.tokenHash, hashToken(token)));
    const [row] = lock ? await query.for("update", { of: teamMembers }) : await query;
    return row;
  }

  /**
   * The businesses of the creator's Business dropdown and `GET /api/businesses` (spec: "Unassigned
   * plus creator's businesses"): for a creator, the live institutes whose team they are on; for
   * an owner, their own live institutes; for an admin, every live one; for a student, none.
   */
  async assignableBusinesses(reader: { id: string; role: Role }): Promise<{ _id: string; name: string }[]> {
    if (reader.role === "student") return [];
    const columns = {
      id: centers.id,
      name: centers.instituteName,
      status: centers.status,
      expiresAt: centers.expiresAt,
    };
    const byName = asc(sql`lower(${centers.instituteName})`);
    // A creator's are kept until their memberships (announced as "creator:<id>", migration 0012)
    // or one of those institutes changes; whether each is live is decided now, on every read.
    const rows: MembershipRow[] =
      reader.role === "creator"
        ? await this.membershipsKept.read(
            reader.id,
            () =>
              this.db
                .select(columns)
                .from(teamMembers)
                .innerJoin(centers, eq(centers.id, teamMembers.centerId))
                .where(and(eq(teamMembers.memberId, reader.id), eq(teamMembers.status, "accepted")))
                .orderBy(byName),
            (found) => [readTags.creator(reader.id), ...found.map((row) => readTags.center(row.id))],
          )
        : await this.db
            .select(columns)
            .from(centers)
            .where(
              and(
                eq(centers.status, "active"),
                reader.role === "business" ? eq(centers.ownerId, reader.id) : undefined,
              ),
            )
            .orderBy(byName);
    return rows.filter((r) => isCenterLive(r)).map((r) => ({ _id: r.id, name: r.name }));
  }

  /** Every content assigned to the institute (deleted ones aside), newest first, with whether visitors see it. */
  async siteItems(centerId: string, contentId?: string): Promise<SiteItemJson[]> {
    const rows = await this.db
      .select({
        id: contents.id,
        title: contents.title,
        type: contents.type,
        price: contents.price,
        isActive: contents.isActive,
        createdAt: contents.createdAt,
        creatorName: users.name,
        creatorEmail: users.email,
        hidden: sql<boolean>`(${hiddenContents.contentId} is not null)`,
        // The site's own rule (shownByItsInstitute): the team's content, and the institute's tests and series.
        onTeam: sql<boolean>`(${contents.type} in ('test', 'series') or exists (select 1 from ${teamMembers} where ${teamMembers.centerId} = ${contents.centerId} and ${teamMembers.memberId} = ${contents.creatorId} and ${teamMembers.status} = 'accepted') or exists (select 1 from ${centers} where ${centers.id} = ${contents.centerId} and ${centers.ownerId} = ${contents.creatorId}))`,
      })
      .from(contents)
      .innerJoin(users, eq(users.id, contents.creatorId))
      .leftJoin(
        hiddenContents,
        and(eq(hiddenContents.centerId, contents.centerId), eq(hiddenContents.contentId, contents.id)),
      )
      .where(
        and(
          eq(contents.centerId, centerId),
          sql`${contents.archivedAt} is null`,
          contentId ? eq(contents.id, contentId) : undefined,
        ),
      )
      .orderBy(desc(contents.createdAt), asc(contents.id));
    return rows.map((r) => ({
      _id: r.id,
      title: r.title,
      type: r.type,
      price: r.price / 100,
      creatorName: r.creatorName,
      creatorEmail: r.creatorEmail,
      isActive: r.isActive,
      hidden: Boolean(r.hidden),
      onTeam: Boolean(r.onTeam),
      shown: r.isActive && !r.hidden && Boolean(r.onTeam),
      createdAt: r.createdAt.toISOString(),
    }));
  }

  /** Hides a content from the institute's site, or shows it again; the site changes at once. */
  async setHidden(owner: { id: string }, centerId: string, contentId: string, input: unknown): Promise<SiteItemJson> {
    const { hidden } = parseWith(VisibilityInput, input);
    if (!isUuid(contentId)) throw notFound(SITE_ITEM_NOT_FOUND);
    const [item] = await this.siteItems(centerId, contentId);
    if (!item) throw notFound(SITE_ITEM_NOT_FOUND);
    if (hidden)
      await this.db.insert(hiddenContents).values({ centerId, contentId, hiddenById: owner.id }).onConflictDoNothing();
    else
      await this.db
        .delete(hiddenContents)
        .where(and(eq(hiddenContents.centerId, centerId), eq(hiddenContents.contentId, contentId)));
    this.deps.reads.forget(readTags.center(centerId), readTags.content(contentId));
    this.deps.catalogChanged(centerId);
    return (await this.siteItems(centerId, contentId))[0];
  }
}

/**
 * Whether `userId` is an accepted member of the institute's team, holding the membership row
 * (shared lock) until the transaction ends, so a removal waits for an assignment and then
 * takes its content off too (TeamService.remove).
 */
export async function lockMembership(tx: DbOrTx, centerId: string, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: teamMembers.id })
    .from(teamMembers)
    .where(
      and(eq(teamMembers.centerId, centerId), eq(teamMembers.memberId, userId), eq(teamMembers.status, "accepted")),
    )
    .for("share");
  return Boolean(row);
}

function stateOf(row: { status: TeamStatus; tokenExpiresAt: Date | null }, now: number): InvitationPreview["state"] {
  if (row.status === "removed") return "withdrawn";
  if (row.status === "accepted") return "accepted";
  return !row.tokenExpiresAt || row.tokenExpiresAt.getTime() <= now ? "expired" : "open";
}

function toEntryJson(r: EntryRow, now: number): TeamEntryJson {
  return {
    _id: r.id,
    email: r.email,
    status: r.status,
    expired: r.status === "pending" && (!r.tokenExpiresAt || r.tokenExpiresAt.getTime() <= now),
    name: r.memberName,
    invitedBy: r.inviterName,
    invitedAt: r.invitedAt.toISOString(),
    acceptedAt: r.acceptedAt?.toISOString() ?? null,
    removedAt: r.removedAt?.toISOString() ?? null,
    expiresAt: r.status === "pending" ? (r.tokenExpiresAt?.toISOString() ?? null) : null,
    joinedBeforeTeams: r.status !== "pending" && r.tokenHash === null,
  };
}
