import { randomBytes } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { centers, guardians, memberships, parentConsents, users } from "../../db/schema/index.ts";
import type { Db, Tx } from "../../db/types.ts";
import { isUniqueViolation } from "../../db/errors.ts";
import { holdsParentRole } from "../../db/families.ts";
import { generateToken, hashToken } from "../../auth/tokens.ts";
import { hashPassword } from "../../auth/password.ts";
import { sessionUserColumns, type SessionUser } from "../../auth/sessions.ts";
import { can, membershipOf } from "../../auth/permissions.ts";
import { HttpError, badRequest, conflict, forbidden, notFound, parseWith } from "../../http/errors.ts";
import type { MessageService } from "../../messages/service.ts";
import type { SiteLinks } from "../../messages/links.ts";
import { RATE_RULES, type RateLimiter } from "../rate-limit.ts";
import { tooMany } from "../accounts.ts";
import type { PhoneService } from "../phones.ts";
import { ADMINS_NOT_MEMBERS } from "#common/validation/team.ts";
import {
  CONSENT_NOTICE_VERSION,
  FAMILY_INVITE_TTL_DAYS,
  FAMILY_TEXTS,
  consentNotice,
  maskPhone,
  type FamilyInvitationJson,
  type GuardianJson,
} from "#common/family.ts";
import { FamilyAnswerInput, ParentInviteInput } from "#common/validation/family.ts";
import { isUuid } from "#common/validation/ids.ts";
import { guardianJson, firstName } from "./rows.ts";

const INVITE_TTL_MS = FAMILY_INVITE_TTL_DAYS * 24 * 60 * 60 * 1000;

/** Who adds a parent: a signed-in account (the student themself, or the institute's staff). */
export interface FamilyActor {
  id: string;
  name: string | null;
  email: string;
}

type GuardianRow = typeof guardians.$inferSelect;

/**
 * Parents join through their child (issue 41, decision 0047). The institute's staff (or the
 * student) name a parent's mobile number; the parent gets a link on WhatsApp and SMS to the
 * institute's site, proves the number with a code sent to it (or is already signed in holding it),
 * reads the consent notice and answers. An answer is recorded word for word; agreeing links the
 * parent's account (made there and then for a number no account holds) to the child.
 */
export class FamilyInvitations {
  private readonly deps: {
    db: Db;
    messages: MessageService;
    links: SiteLinks;
    rateLimiter: RateLimiter;
    phones: PhoneService;
    now?: () => number;
  };

  constructor(deps: FamilyInvitations["deps"]) {
    this.deps = deps;
  }

  private now(): Date {
    return new Date(this.deps.now?.() ?? Date.now());
  }

  /**
   * Invites a parent of `studentId` at institute `centerId`: asked by the student themself, or by
   * someone whose role there may link families. A number already linked (or invited) to this child
   * is a 409; inviting it again while invited sends a fresh link (the old one stops working).
   */
  async invite(
    actor: FamilyActor,
    centerId: string,
    studentId: string,
    input: unknown,
  ): Promise<{ guardian: GuardianJson; link: string; renewed: boolean }> {
    const { db } = this.deps;
    const body = parseWith(ParentInviteInput, input);
    if (!isUuid(studentId)) throw notFound(FAMILY_TEXTS.studentNotFound);
    if (actor.id !== studentId) {
      const membership = await membershipOf(db, actor.id, centerId);
      if (!membership || membership.roles.length === 0) throw notFound(FAMILY_TEXTS.studentNotFound);
      if (!can(membership, "families.manage")) throw forbidden(FAMILY_TEXTS.ownOnly);
    }
    const [student] = await db
      .select({ id: users.id, name: users.name, phone: users.phone, verifiedAt: users.phoneVerifiedAt })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(
        and(
          eq(memberships.centerId, centerId),
          eq(memberships.userId, studentId),
          eq(memberships.role, "student"),
          eq(memberships.status, "active"),
        ),
      );
    if (!student)
      throw actor.id === studentId ? forbidden(FAMILY_TEXTS.notStudentHere) : notFound(FAMILY_TEXTS.studentNotFound);
    if (student.verifiedAt && student.phone === body.phone)
      throw badRequest(FAMILY_TEXTS.selfParent, { issues: [{ field: "phone", message: FAMILY_TEXTS.selfParent }] });
    const limit = await this.deps.rateLimiter.hit(RATE_RULES.familyInviteUser, actor.id);
    if (!limit.allowed) throw tooMany(limit.retryAfter);
    const [center] = await db
      .select({ id: centers.id, name: centers.instituteName, slug: centers.slug, customDomain: centers.customDomain })
      .from(centers)
      .where(eq(centers.id, centerId));
    if (!center) throw notFound(FAMILY_TEXTS.studentNotFound);
    const token = generateToken();
    const now = this.now();
    // The link leads to the institute's own site, from what the server knows of it (never the request's host).
    const link = this.deps.links.to(center, `/family/${token}`);
    try {
      const outcome = await db.transaction(async (tx) => {
        const [live] = await tx
          .select()
          .from(guardians)
          .where(
            and(
              eq(guardians.centerId, centerId),
              eq(guardians.studentId, studentId),
              eq(guardians.phone, body.phone),
              inArray(guardians.status, ["invited", "active"]),
            ),
          )
          .for("update");
        if (live?.status === "active") throw conflict(FAMILY_TEXTS.alreadyLinked(body.phone));
        await this.deps.messages.send(tx, {
          template: "parent-invitation",
          values: { institute: center.name, child: firstName(student.name), link },
          to: { phone: body.phone },
          centerId,
        });
        const fields = {
          name: body.name,
          relation: body.relation,
          invitedById: actor.id,
          tokenHash: hashToken(token),
          tokenExpiresAt: new Date(now.getTime() + INVITE_TTL_MS),
          invitedAt: now,
          updatedAt: now,
        };
        if (live) {
          const [renewed] = await tx.update(guardians).set(fields).where(eq(guardians.id, live.id)).returning();
          return { row: renewed, renewed: true };
        }
        const [made] = await tx
          .insert(guardians)
          .values({ ...fields, centerId, studentId, phone: body.phone, status: "invited" })
          .returning();
        return { row: made, renewed: false };
      });
      return { guardian: guardianJson(outcome.row, now), link, renewed: outcome.renewed };
    } catch (error) {
      if (isUniqueViolation(error, "guardians_live_key")) throw conflict(FAMILY_TEXTS.alreadyLinked(body.phone));
      throw error;
    }
  }

  /** What an invitation link shows: the institute, the child's first name, the number (masked) and the notice. */
  async preview(token: string): Promise<FamilyInvitationJson & { centerId: string }> {
    const found = await this.byToken(this.deps.db, token);
    if (!found) throw notFound(FAMILY_TEXTS.notFound);
    const { row, institute, child } = found;
    return {
      centerId: row.centerId,
      institute,
      child,
      name: row.name,
      relation: row.relation,
      phone: maskPhone(row.phone),
      state: this.stateOf(row),
      notice: { version: CONSENT_NOTICE_VERSION, text: consentNotice(institute, child) },
    };
  }

  /** Sends a code to the invited number (and only to it), for answering without being signed in on it. */
  async sendCode(token: string, meta: { ip: string }): Promise<{ message: string }> {
    const found = await this.byToken(this.deps.db, token);
    if (!found) throw notFound(FAMILY_TEXTS.notFound);
    this.refuseClosed(found.row);
    await this.deps.phones.sendFamilyCode(found.row.phone, found.row.centerId, meta);
    return { message: FAMILY_TEXTS.codeSent(maskPhone(found.row.phone)) };
  }

  /**
   * The parent's answer (`FamilyAnswerInput`) to the notice they were shown. The answering account
   * is the signed-in `viewer` when it holds the invited number, verified; otherwise the code sent to
   * that number proves it, and the number's account answers (made now, with the name and e-mail
   * given, when no account holds it). Returns the account, for the caller to sign in when it was not.
   */
  async answer(
    token: string,
    input: unknown,
    viewer: { id: string } | null,
  ): Promise<{ guardian: GuardianJson; parent: SessionUser | null; message: string }> {
    const { db } = this.deps;
    const body = parseWith(FamilyAnswerInput, input);
    const found = await this.byToken(db, token);
    if (!found) throw notFound(FAMILY_TEXTS.notFound);
    this.refuseClosed(found.row);
    if (body.noticeVersion !== CONSENT_NOTICE_VERSION) throw conflict(FAMILY_TEXTS.noticeChanged);
    const { row, institute, child } = found;
    const granted = body.answer === "granted";
    const holder = await this.verifiedHolderOf(row.phone);
    let parent: SessionUser | null = holder && viewer && holder.id === viewer.id ? holder : null;
    if (!parent) {
      if (!body.code)
        throw badRequest(FAMILY_TEXTS.signInWithNumber(maskPhone(row.phone)), {
          issues: [{ field: "code", message: FAMILY_TEXTS.signInWithNumber(maskPhone(row.phone)) }],
        });
      // Checked before the code is spent, so a missing name or e-mail costs no code. A refusal
      // makes no account: the proven number answers.
      if (granted && !holder && (!body.name || !body.email))
        throw badRequest(FAMILY_TEXTS.nameAndEmailNeeded, {
          issues: [{ field: body.name ? "email" : "name", message: FAMILY_TEXTS.nameAndEmailNeeded }],
        });
      await this.deps.phones.proveFamilyNumber(row.phone, row.centerId, body.code);
      parent = holder ?? (granted ? await this.makeParentAccount(row.phone, body.name!, body.email!) : null);
    }
    if (parent?.role === "admin") throw forbidden(ADMINS_NOT_MEMBERS);
    const parentId = parent?.id ?? null;
    const now = this.now();
    const updated = await db.transaction(async (tx) => {
      const [locked] = await tx.select().from(guardians).where(eq(guardians.id, row.id)).for("update");
      this.refuseClosed(locked);
      await tx.insert(parentConsents).values({
        centerId: row.centerId,
        guardianId: row.id,
        parentId,
        answer: body.answer,
        noticeVersion: CONSENT_NOTICE_VERSION,
        noticeText: consentNotice(institute, child),
        at: now,
      });
      const [done] = await tx
        .update(guardians)
        .set({
          parentId,
          status: granted ? "active" : "declined",
          linkedAt: granted ? now : null,
          endedAt: granted ? null : now,
          updatedAt: now,
        })
        .where(eq(guardians.id, row.id))
        .returning();
      if (granted && parentId) await this.holdParentRole(tx, row.centerId, parentId, now);
      return done;
    });
    return {
      guardian: guardianJson(updated, now),
      parent,
      message: granted ? FAMILY_TEXTS.granted(child) : FAMILY_TEXTS.refused(institute),
    };
  }

  /** Whether `userId` holds the number invitation `token` was sent to, verified: they answer without a code. */
  async heldBy(token: string, userId: string): Promise<boolean> {
    const found = await this.byToken(this.deps.db, token);
    if (!found) return false;
    return (await this.verifiedHolderOf(found.row.phone))?.id === userId;
  }

  /** The parent's role at the institute: one live membership, however many children they have there. */
  private async holdParentRole(tx: Tx, centerId: string, userId: string, now: Date): Promise<void> {
    if (await holdsParentRole(tx, userId, centerId)) return;
    await tx.insert(memberships).values({ centerId, userId, role: "parent", status: "active", acceptedAt: now });
  }

  /** The account holding `phone`, verified, if any. */
  private async verifiedHolderOf(phone: string): Promise<SessionUser | null> {
    const [holder] = await this.deps.db
      .select({ ...sessionUserColumns, verifiedAt: users.phoneVerifiedAt })
      .from(users)
      .where(eq(users.phone, phone));
    if (!holder?.verifiedAt) return null;
    const { verifiedAt: _verified, ...user } = holder;
    return user;
  }

  /**
   * A parent's account for a number no account holds: it signs in with codes sent to that number
   * (proved just now). Its password is random and never shown; "Forgot password?" sets one.
   */
  private async makeParentAccount(phone: string, name: string, email: string): Promise<SessionUser> {
    const passwordHash = await hashPassword(randomBytes(32).toString("base64url"));
    try {
      const [made] = await this.deps.db
        .insert(users)
        .values({ name, email, passwordHash, role: "student", phone, phoneVerifiedAt: this.now() })
        .returning(sessionUserColumns);
      return made;
    } catch (error) {
      if (isUniqueViolation(error, "users_email_key")) throw conflict(FAMILY_TEXTS.emailTaken);
      if (isUniqueViolation(error, "users_phone_key")) throw conflict("This number is already used by another account");
      throw error;
    }
  }

  private stateOf(row: GuardianRow): FamilyInvitationJson["state"] {
    if (row.status === "invited")
      return row.tokenExpiresAt && row.tokenExpiresAt.getTime() <= this.now().getTime() ? "expired" : "open";
    return row.status === "active" || row.status === "declined" ? "answered" : "ended";
  }

  private refuseClosed(row: GuardianRow | undefined): void {
    if (!row) throw notFound(FAMILY_TEXTS.notFound);
    const state = this.stateOf(row);
    if (state === "expired") throw new HttpError(410, FAMILY_TEXTS.expired);
    if (state === "answered") throw conflict(FAMILY_TEXTS.answered);
    if (state === "ended") throw new HttpError(410, FAMILY_TEXTS.ended);
  }

  private async byToken(db: Db, token: string) {
    if (!/^[a-z2-7]{32}$/.test(token)) return null;
    const [found] = await db
      .select({ row: guardians, institute: centers.instituteName, childName: users.name })
      .from(guardians)
      .innerJoin(centers, eq(centers.id, guardians.centerId))
      .innerJoin(users, eq(users.id, guardians.studentId))
      .where(eq(guardians.tokenHash, hashToken(token)));
    return found ? { row: found.row, institute: found.institute, child: firstName(found.childName) } : null;
  }
}
