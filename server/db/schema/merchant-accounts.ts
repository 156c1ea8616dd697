import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users.ts";
import { centers } from "./centers.ts";
import { tenantIsolation } from "./tenant-policy.ts";

/**
 * An institute's own Razorpay account, which its students' payments are made on (decision 0040).
 * A row per connection: disconnecting keeps the row (`disconnected`), so orders made on it still
 * name the account they were paid to. Secrets are sealed with AES-256-GCM (server/payments/secrets.ts)
 * and never leave the server.
 */
export const merchantAccounts = pgTable(
  "merchant_accounts",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: uuid()
      .notNull()
      .references(() => centers.id, { onDelete: "cascade" }),
    /** "keys" (the owner typed them) or "oauth" (Razorpay's partner authorisation). */
    method: text().$type<"keys" | "oauth">().notNull(),
    /** Public: Checkout is opened with it. */
    keyId: text().notNull(),
    keySecretSealed: text().notNull(),
    webhookSecretSealed: text().notNull(),
    status: text().$type<"connected" | "disconnected">().notNull().default("connected"),
    connectedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    connectedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    disconnectedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    disconnectedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    // One institute per Razorpay key, and one connected account per institute.
    uniqueIndex("merchant_accounts_key_connected_key")
      .on(t.keyId)
      .where(sql`${t.status} = 'connected'`),
    uniqueIndex("merchant_accounts_center_connected_key")
      .on(t.centerId)
      .where(sql`${t.status} = 'connected'`),
    index("merchant_accounts_center_idx").on(t.centerId, t.connectedAt),
    tenantIsolation(t.centerId),
  ],
);
