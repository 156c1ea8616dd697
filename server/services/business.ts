import { and, asc, desc, eq, inArray, isNull } from "drizzle-orm";
import { centers, memberships } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import { forbidden } from "../http/errors.ts";
import type { Site } from "./tenants.ts";
import { INTERNATIONAL_MESSAGES_TEXTS } from "#common/messages.ts";
import { MEMBER_ROLES, ROLE_AREAS } from "#common/memberships.ts";

export type OwnedCenter = typeof centers.$inferSelect;

/** The roles whose area is the business area (#common/memberships.ts ROLE_AREAS). */
export const BUSINESS_AREA_ROLES = MEMBER_ROLES.filter((role) => ROLE_AREAS[role] === "/business");

/**
 * Which institute a business account is working on. On an institute's own domain it is that
 * institute (and only for its owner); on the platform it is the one the owner picked, else their
 * newest (by name among those made at the same moment, as the demo's are).
 */
export class BusinessService {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async ownedCenters(ownerId: string): Promise<OwnedCenter[]> {
    return this.db
      .select()
      .from(centers)
      .where(eq(centers.ownerId, ownerId))
      .orderBy(desc(centers.createdAt), asc(centers.instituteName));
  }

  async centerById(centerId: string): Promise<OwnedCenter | undefined> {
    const [row] = await this.db.select().from(centers).where(eq(centers.id, centerId));
    return row;
  }

  async ownedCenter(ownerId: string, centerId: string): Promise<OwnedCenter | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(centerId)) return undefined;
    const [row] = await this.db
      .select()
      .from(centers)
      .where(and(eq(centers.id, centerId), eq(centers.ownerId, ownerId)));
    return row;
  }

  async currentCenter(ownerId: string, site: Site, preferredId?: string | null): Promise<OwnedCenter | null> {
    if (site.kind === "tenant") {
      return site.center.ownerId === ownerId ? ((await this.ownedCenter(ownerId, site.center.id)) ?? null) : null;
    }
    if (preferredId) {
      const preferred = await this.ownedCenter(ownerId, preferredId);
      if (preferred) return preferred;
    }
    const [newest] = await this.db
      .select()
      .from(centers)
      .where(eq(centers.ownerId, ownerId))
      .orderBy(desc(centers.createdAt), asc(centers.instituteName))
      .limit(1);
    return newest ?? null;
  }

  /**
   * The institutes whose business area the person works in (issue 40): those where they hold a
   * live role whose area is the business area (owner, staff), newest first. What they may do in
   * each is the policy's (server/auth/permissions.ts), not this list's.
   */
  async desks(userId: string): Promise<OwnedCenter[]> {
    const held = this.db
      .select({ id: memberships.centerId })
      .from(memberships)
      .where(
        and(
          eq(memberships.userId, userId),
          eq(memberships.status, "active"),
          inArray(memberships.role, BUSINESS_AREA_ROLES),
        ),
      );
    return this.db
      .select()
      .from(centers)
      .where(inArray(centers.id, held))
      .orderBy(desc(centers.createdAt), asc(centers.instituteName));
  }

  /**
   * The institute the business area shows the person: on an institute's own domain that one (if
   * they work there); on the platform `preferredId` when they work there, else their newest.
   */
  async deskCenter(userId: string, site: Site, preferredId?: string | null): Promise<OwnedCenter | null> {
    const desks = await this.desks(userId);
    if (site.kind === "tenant") return desks.find((c) => c.id === site.center.id) ?? null;
    return desks.find((c) => c.id === preferredId) ?? desks[0] ?? null;
  }

  /**
   * Whether WhatsApp and SMS about the institute may go to mobile numbers outside India (issue 37
   * §6): the owner's choice once the institute pays for a plan; a free trial, which anybody can
   * start, keeps to Indian numbers (the recipient policy checks the same).
   */
  async setInternationalMessages(centerId: string, on: boolean): Promise<void> {
    const changed = await this.db
      .update(centers)
      .set({ internationalMessages: on, updatedAt: new Date() })
      .where(and(eq(centers.id, centerId), on ? isNull(centers.trialEndsAt) : undefined))
      .returning({ id: centers.id });
    if (changed.length === 0) throw forbidden(INTERNATIONAL_MESSAGES_TEXTS.trial);
  }
}

/** A plan is active while the center is active and not past its expiry. */
export function hasActivePlan(center: Pick<OwnedCenter, "status" | "expiresAt" | "planName"> | null): boolean {
  return Boolean(
    center &&
    center.status === "active" &&
    center.planName &&
    (!center.expiresAt || center.expiresAt.getTime() > Date.now()),
  );
}
