import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { centers, contents, hiddenContents, memberships, users } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import { readTags, type ReadCache, type ReadCaches } from "../caches/read-cache.ts";
import { notFound, parseWith } from "../http/errors.ts";
import { isCenterLive } from "./tenants.ts";
import { rolesThatMay } from "../auth/permissions.ts";
import type { MembersService } from "./members.ts";
import { isUuid } from "#common/validation/content.ts";
import type { InvitationPreview, SiteItemJson, TeamEntryJson } from "#common/team-types.ts";
import type { Role } from "#common/validation/account.ts";
import type { MemberStatus } from "#common/memberships.ts";
import {
  InviteInput,
  SITE_ITEM_NOT_FOUND,
  TEAM_ENTRY_NOT_FOUND,
  VisibilityInput,
  type TeamStatus,
} from "#common/validation/team.ts";

export { lockMembership } from "./members.ts";

/** The institute a team belongs to (the owner's current center). */
export interface TeamCenter {
  id: string;
  instituteName: string;
}

export interface TeamServiceDeps {
  db: Db;
  reads: ReadCaches;
  /** Tells the institute's site (home page, public catalog) that what it lists has changed. */
  catalogChanged: (centerId: string) => void;
  /** Invitations, acceptance and removal are every role's (the team is the institute's creators). */
  members: MembersService;
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
  id: memberships.id,
  email: memberships.email,
  phone: memberships.phone,
  status: memberships.status,
  tokenHash: memberships.tokenHash,
  tokenExpiresAt: memberships.tokenExpiresAt,
  invitedAt: memberships.invitedAt,
  acceptedAt: memberships.acceptedAt,
  removedAt: memberships.removedAt,
  createdAt: memberships.createdAt,
  memberName: member.name,
  memberEmail: member.email,
  inviterName: inviter.name,
};
interface EntryRow {
  id: string;
  email: string | null;
  /** The mobile number a creator was invited at, when not an e-mail address. */
  phone: string | null;
  status: MemberStatus;
  tokenHash: string | null;
  tokenExpiresAt: Date | null;
  invitedAt: Date | null;
  createdAt: Date;
  memberEmail: string | null;
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
  private readonly members: MembersService;

  constructor(deps: TeamServiceDeps) {
    this.deps = deps;
    this.db = deps.db;
    this.now = deps.now ?? Date.now;
    this.membershipsKept = deps.reads.create();
    this.members = deps.members;
  }

  /**
   * Invites a creator to the institute's team and returns the link to send: `{email}` (its own
   * messages, as the Team API has always answered) or `{phone}`, through the one invitation
   * function every role's invitation goes through (`MembersService.inviteAt`: the inviter's roles
   * there must allow it; a pending address gets a fresh link; one already on the team is a 409).
   */
  async invite(
    actor: TeamActor,
    center: TeamCenter,
    input: unknown,
  ): Promise<{ entry: TeamEntryJson; token: string; link: string; renewed: boolean }> {
    const made = await this.members.inviteAt(actor, center.id, { ...teamAddress(input), role: "creator" });
    const entry = (await this.entries(center.id, made.id))[0];
    return { entry, token: made.token, link: made.link, renewed: made.renewed };
  }

  /** The institute's team: pending invitations, members, then removed ones (newest first in each). */
  async list(centerId: string): Promise<TeamEntryJson[]> {
    return this.entries(centerId);
  }

  /** How many members and open invitations an institute has (the Account page's 'Team & Analytics' card). */
  async summary(centerId: string): Promise<{ members: number; pending: number }> {
    const [row] = await this.db
      .select({
        members: sql<number>`count(*) filter (where ${memberships.status} = 'active')`.mapWith(Number),
        pending:
          sql<number>`count(*) filter (where ${memberships.status} = 'invited' and ${memberships.tokenExpiresAt} > now())`.mapWith(
            Number,
          ),
      })
      .from(memberships)
      .where(and(eq(memberships.centerId, centerId), eq(memberships.role, "creator")));
    return { members: row?.members ?? 0, pending: row?.pending ?? 0 };
  }

  private async entries(centerId: string, id?: string): Promise<TeamEntryJson[]> {
    const rows: EntryRow[] = await this.db
      .select(entryColumns)
      .from(memberships)
      .leftJoin(member, eq(member.id, memberships.userId))
      .leftJoin(inviter, eq(inviter.id, memberships.invitedById))
      .where(
        and(
          eq(memberships.centerId, centerId),
          eq(memberships.role, "creator"),
          id ? eq(memberships.id, id) : undefined,
        ),
      )
      .orderBy(
        sql`case ${memberships.status} when 'invited' then 0 when 'active' then 1 else 2 end`,
        desc(
          sql`coalesce(${memberships.removedAt}, ${memberships.acceptedAt}, ${memberships.invitedAt}, ${memberships.createdAt})`,
        ),
        asc(memberships.email),
      );
    const now = this.now();
    return rows.map((r) => toEntryJson(r, now));
  }

  /**
   * Revokes a pending invitation or removes a member (the link then says the institute withdrew
   * it); a removed member's content leaves the institute at once (MembersService.remove).
   */
  async remove(centerId: string, entryId: string): Promise<TeamEntryJson> {
    if (!isUuid(entryId)) throw notFound(TEAM_ENTRY_NOT_FOUND);
    const [found] = await this.entries(centerId, entryId);
    if (!found) throw notFound(TEAM_ENTRY_NOT_FOUND);
    await this.members.remove(centerId, entryId, "creator");
    return (await this.entries(centerId, entryId))[0];
  }

  /** What an invitation link shows (any role's invitation: the /invite page is every role's). */
  async preview(token: string): Promise<InvitationPreview> {
    return this.members.preview(token);
  }

  /** Accepts an invitation for the signed-in `user` (MembersService.accept). */
  async accept(user: TeamActor, token: string) {
    return this.members.accept(user, token);
  }

  /**
   * The businesses of the creator's Business dropdown and `GET /api/businesses` (spec: "Unassigned
   * plus creator's businesses"): for a creator, the live institutes where the policy lets their
   * roles do `action` (content.write: creators and owners; tests.write: teachers too); for an
   * owner, their own live institutes; for an admin, every live one; for a student, none.
   */
  async assignableBusinesses(
    reader: { id: string; role: Role },
    action: "content.write" | "tests.write" = "content.write",
  ): Promise<{ _id: string; name: string }[]> {
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
            `${reader.id}|${action}`,
            () =>
              this.db
                .select(columns)
                .from(memberships)
                .innerJoin(centers, eq(centers.id, memberships.centerId))
                .where(
                  and(
                    eq(memberships.userId, reader.id),
                    inArray(memberships.role, rolesThatMay(action)),
                    eq(memberships.status, "active"),
                  ),
                )
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
        onTeam: sql<boolean>`(${contents.type} in ('test', 'series') or exists (select 1 from ${memberships} where ${memberships.centerId} = ${contents.centerId} and ${memberships.userId} = ${contents.creatorId} and ${memberships.role} = 'creator' and ${memberships.status} = 'active') or exists (select 1 from ${centers} where ${centers.id} = ${contents.centerId} and ${centers.ownerId} = ${contents.creatorId}))`,
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

const TEAM_STATUS: Record<MemberStatus, TeamStatus> = { invited: "pending", active: "accepted", removed: "removed" };

/**
 * Who a creator's invitation goes to: an e-mail address (checked here, with the Team API's own
 * messages) unless a mobile number is given, which the invitation's own schema checks.
 */
export function teamAddress(input: unknown): { email: string; phone: string } {
  const given = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  if (typeof given.phone === "string" && given.phone.trim() !== "")
    return { email: typeof given.email === "string" ? given.email : "", phone: given.phone };
  return { email: parseWith(InviteInput, input).email, phone: "" };
}

/** A creator's membership in the team's own words (pending, accepted, removed), as the Team API has always answered. */
function toEntryJson(r: EntryRow, now: number): TeamEntryJson {
  const status = TEAM_STATUS[r.status];
  return {
    _id: r.id,
    // An invitation sent to a mobile number is named by it until its creator accepts.
    address: r.email ?? r.memberEmail ?? r.phone ?? "",
    status,
    expired: status === "pending" && (!r.tokenExpiresAt || r.tokenExpiresAt.getTime() <= now),
    name: r.memberName,
    invitedBy: r.inviterName,
    invitedAt: (r.invitedAt ?? r.createdAt).toISOString(),
    acceptedAt: r.acceptedAt?.toISOString() ?? null,
    removedAt: r.removedAt?.toISOString() ?? null,
    expiresAt: status === "pending" ? (r.tokenExpiresAt?.toISOString() ?? null) : null,
    joinedBeforeTeams: status !== "pending" && r.tokenHash === null,
  };
}
