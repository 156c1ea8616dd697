import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { contentTypeEnum } from "./enums.ts";
import { centers, users } from "./users-and-centers.ts";
import { tenantIsolation } from "./tenant-policy.ts";

export const contents = pgTable(
  "contents",
  {
    id: uuid().primaryKey().defaultRandom(),
    creatorId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The institute (business) the content is assigned to, if any. */
    centerId: uuid().references(() => centers.id, { onDelete: "set null" }),
    type: contentTypeEnum().notNull(),
    title: text().notNull(),
    description: text().notNull().default(""),
    /** Paise. */
    price: integer().notNull().default(0),
    fileKey: text(),
    fileName: text(),
    fileSize: bigint({ mode: "number" }),
    fileMime: text(),
    thumbnailKey: text(),
    liveLink: text(),
    liveStartsAt: timestamp({ withTimezone: true }),
    isActive: boolean().notNull().default(true),
    /** Set instead of deleting when students have bought it, so they keep access. */
    archivedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("contents_creator_created_idx").on(t.creatorId, t.createdAt),
    index("contents_center_type_idx")
      .on(t.centerId, t.type)
      .where(sql`${t.isActive} and ${t.archivedAt} is null`),
    // Everything on an institute's site, switched on or off (the owner's Website Content; removing a member).
    index("contents_center_created_idx")
      .on(t.centerId, t.createdAt.desc())
      .where(sql`${t.archivedAt} is null`),
    index("contents_catalog_idx")
      .on(t.type, t.createdAt)
      .where(sql`${t.isActive} and ${t.archivedAt} is null`),
    // The platform catalog's order: upcoming classes first, then newest.
    index("contents_catalog_order_idx")
      .on(t.liveStartsAt.asc().nullsLast(), t.createdAt.desc().nullsFirst(), t.id)
      .where(sql`${t.isActive} and ${t.archivedAt} is null`),
    tenantIsolation(t.centerId),
  ],
);
