import { sql } from "drizzle-orm";
import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { memberRoleEnum, memberStatusEnum } from "./enums.ts";
import { instituteId, users } from "./users-and-centers.ts";
import { contents } from "./content.ts";
import { tenantIsolation } from "./tenant-policy.ts";

/**
 * A person's role in an institute (issue 40, decision 0039): owner, staff, teacher, creator,
 * student or parent. A row is an invitation while `invited` (sent to `email` or `phone`, a link
 * whose token hash it keeps), a membership once `active` (`userId` set), and stays as history
 * when `removed`. One account may hold several roles in several institutes; one live row per
 * person, institute and role. Owners' and students' rows are also kept by triggers (migration
 * 0029) from `centers.owner_id`, sign-ups on an institute's site and enrolments, so every path
 * that makes an owner or a student makes the membership.
 */
export const memberships = pgTable(
  "memberships",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: instituteId(),
    /** The member; null while an invitation waits for an account. */
    userId: uuid().references(() => users.id, { onDelete: "cascade" }),
    role: memberRoleEnum().notNull(),
    /** What a staff member does there (front desk, accountant); null for the other roles. */
    duty: text(),
    status: memberStatusEnum().notNull().default("active"),
    /** The invited address, trimmed and lower-cased (invitations by e-mail). */
    email: text(),
    /** The invited mobile number in E.164 (invitations by mobile). */
    phone: text(),
    invitedById: uuid().references(() => users.id, { onDelete: "set null" }),
    /** SHA-256 (hex) of the invitation link's token, never the token itself. */
    tokenHash: text(),
    tokenExpiresAt: timestamp({ withTimezone: true }),
    invitedAt: timestamp({ withTimezone: true }),
    acceptedAt: timestamp({ withTimezone: true }),
    removedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One live membership per person, institute and role; removed rows are history.
    uniqueIndex("memberships_live_key")
      .on(t.centerId, t.userId, t.role)
      .where(sql`${t.status} = 'active'`),
    // One open invitation per address, institute and role.
    uniqueIndex("memberships_invited_email_key")
      .on(t.centerId, t.role, t.email)
      .where(sql`${t.status} = 'invited' and ${t.email} is not null`),
    uniqueIndex("memberships_invited_phone_key")
      .on(t.centerId, t.role, t.phone)
      .where(sql`${t.status} = 'invited' and ${t.phone} is not null`),
    // "Which institutes and roles does this person hold" (the header, the site's visibility rule).
    index("memberships_user_idx")
      .on(t.userId, t.role)
      .where(sql`${t.status} = 'active'`),
    index("memberships_center_role_idx").on(t.centerId, t.role, t.status),
    // The site's visibility rule asks, for each content, whether its creator is on the team: a
    // small index of creators alone, among every institute's many students.
    index("memberships_creators_idx")
      .on(t.centerId, t.userId)
      .where(sql`${t.role} = 'creator' and ${t.status} = 'active'`),
    uniqueIndex("memberships_token_key")
      .on(t.tokenHash)
      .where(sql`${t.tokenHash} is not null`),
    tenantIsolation(t.centerId),
  ],
);

/** Content an institute's owner took off their site (whoever's it is); kept per institute, so reassigning does not undo it. */
export const hiddenContents = pgTable(
  "hidden_contents",
  {
    centerId: instituteId(),
    contentId: uuid()
      .notNull()
      .references(() => contents.id, { onDelete: "cascade" }),
    hiddenById: uuid().references(() => users.id, { onDelete: "set null" }),
    hiddenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.centerId, t.contentId] }),
    index("hidden_contents_content_idx").on(t.contentId),
    tenantIsolation(t.centerId),
  ],
);
