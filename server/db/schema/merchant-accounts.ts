import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { instituteId, users } from "./users-and-centers.ts";
import { tenantIsolation } from "./tenant-policy.ts";

/**
 * An institute's own Razorpay account, which its students' payments are made on (decision 0040).
 * A row per connection: disconnecting keeps the row (`disconnected`), so orders made on it still
 * name the account they were paid to. Secrets and tokens are sealed with AES-256-GCM
 * (server/payments/secrets.ts) and never leave the server.
 */
export const merchantAccounts = pgTable(
  "merchant_accounts",
  {
    id: uuid().primaryKey().defaultRandom(),
    centerId: instituteId(),
    /** "keys" (the owner typed them) or "oauth" (Razorpay's partner authorisation, 'Connect with Razorpay'). */
    method: text().$type<"keys" | "oauth">().notNull(),
    /** Public: Checkout is opened with it (the key id, or an OAuth connection's public token). */
    keyId: text().notNull(),
    /** Keys only (an OAuth connection has no key secret or webhook secret of its own). */
    keySecretSealed: text(),
    webhookSecretSealed: text(),
    /** OAuth only: the Razorpay account (`acc_…`) that granted the authorisation. */
    razorpayAccountId: text(),
    /** OAuth only: the tokens Razorpay gave the platform for this account, and when the access token ends. */
    accessTokenSealed: text(),
    refreshTokenSealed: text(),
    tokenExpiresAt: timestamp({ withTimezone: true }),
    /**
     * OAuth only: when Razorpay refused the refresh token (the owner revoked the platform's access):
     * the row is disconnected then, and the owner is asked to connect again.
     */
    revokedAt: timestamp({ withTimezone: true }),
    status: text().$type<"connected" | "disconnected">().notNull().default("connected"),
    connectedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    connectedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    disconnectedBy: uuid().references(() => users.id, { onDelete: "set null" }),
    disconnectedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    // One institute per Razorpay key (or Razorpay account, for OAuth), and one connected account per institute.
    uniqueIndex("merchant_accounts_key_connected_key")
      .on(t.keyId)
      .where(sql`${t.status} = 'connected'`),
    uniqueIndex("merchant_accounts_razorpay_account_connected_key")
      .on(t.razorpayAccountId)
      .where(sql`${t.status} = 'connected'`),
    uniqueIndex("merchant_accounts_center_connected_key")
      .on(t.centerId)
      .where(sql`${t.status} = 'connected'`),
    index("merchant_accounts_center_idx").on(t.centerId, t.connectedAt),
    tenantIsolation(t.centerId),
  ],
);

/**
 * The `state` of a 'Connect with Razorpay' in flight (Razorpay's OAuth): issued to one owner's
 * session for one institute, used once, for ten minutes. The state itself is signed
 * (server/payments/oauth-state.ts); this row makes it single-use.
 */
export const merchantOauthStates = pgTable(
  "merchant_oauth_states",
  {
    /** The state's random nonce. */
    id: text().primaryKey(),
    centerId: instituteId(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** A keyed tag of the session that pressed the button (server/payments/oauth-state.ts), not its id. */
    sessionId: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("merchant_oauth_states_expires_idx").on(t.expiresAt), tenantIsolation(t.centerId)],
);
