import { sql } from "drizzle-orm";
import { index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { teamStatusEnum } from "./enums.ts";
import { users } from "./users.ts";
import { centers } from "./centers.ts";
import { contents } from "./content.ts";
import { tenantIsolation } from "./tenant-policy.ts";

/**
 * An institute's team: creators its owner invited by e-mail. A row is an invitation while
 * `pending`, a membership once `accepted` (by the account with that e-mail), and stays as history
 * when `removed` (a revoked invitation or a removed member). Only accepted members may assign
 * content to the institute, and only their content is shown on its site.
 */
export const teamMembers = pgTable(
  "team_members",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: uuid()
      .notNull()
      .references(() => centers.id, { onDelete: "cascade" }),
    /** The invited address, trimmed and lower-cased. */
    email: text().notNull(),
    invitedById: uuid().references(() => users.id, { onDelete: "set null" }),
    /** The account that accepted; set once accepted. */
    memberId: uuid().references(() => users.id, { onDelete: "cascade" }),
    status: teamStatusEnum().notNull().default("pending"),
    /** SHA-256 (hex) of the invitation link's token, never the token itself; null for memberships made without a link. */
    tokenHash: text(),
    tokenExpiresAt: timestamp({ withTimezone: true }),
    invitedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    acceptedAt: timestamp({ withTimezone: true }),
    removedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One open invitation or membership per address and institute; removed rows are history.
    uniqueIndex("team_members_center_email_key")
      .on(t.centerId, t.email)
      .where(sql`${t.status} <> 'removed'`),
    // Serves "is this creator on this institute's team" (the site's visibility rule) and "which teams is this creator on".
    uniqueIndex("team_members_center_member_key")
      .on(t.centerId, t.memberId)
      .where(sql`${t.status} = 'accepted'`),
    index("team_members_member_idx")
      .on(t.memberId)
      .where(sql`${t.status} = 'accepted'`),
    uniqueIndex("team_members_token_key")
      .on(t.tokenHash)
      .where(sql`${t.tokenHash} is not null`),
    tenantIsolation(t.centerId),
  ],
);

/** Content an institute's owner took off their site (whoever's it is); kept per institute, so reassigning does not undo it. */
export const hiddenContents = pgTable(
  "hidden_contents",
  {
    centerId: uuid()
      .notNull()
      .references(() => centers.id, { onDelete: "cascade" }),
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
