import { and, desc, eq, sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { centers, merchantAccounts, users } from "../db/schema/index.ts";
import type { Db, DbOrTx } from "../db/types.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { HttpError, badRequest, conflict, notFound, parseWith } from "../http/errors.ts";
import type { Logger } from "../runtime/logger.ts";
import { ConnectKeysSchema, MERCHANT_TEXTS, type MerchantAccountJson } from "#common/validation/merchant-account.ts";
import type { PaymentConfig } from "./config.ts";
import { GatewayError, type PaymentGateway } from "./gateway.ts";
import { RazorpayGateway, type GatewayKeys } from "./razorpay.ts";
import type { SecretBox } from "./secrets.ts";
import { sandboxAccount } from "./sandbox/accounts.ts";

type AccountRow = typeof merchantAccounts.$inferSelect;

export interface MerchantAccountsDeps {
  db: Db;
  config: PaymentConfig;
  /** Null when the server has no SECRETS_KEY and no sandbox: nothing can be connected. */
  box: SecretBox | null;
  logger: Logger;
  /** The webhook URL of an account, on the platform's own address (never from a request's Host). */
  webhookUrl: (accountId: string) => string;
  /** The institute's row changed (its cached site, and so its catalog, are read again). */
  centerChanged: () => void;
  /** Builds a gateway for keys (tests replace it). */
  gatewayFor?: (keys: GatewayKeys) => PaymentGateway;
}

/** The associated data a secret is sealed with: its row and column. */
const sealedAs = (accountId: string, field: "keySecret" | "webhookSecret") => `merchant_accounts:${accountId}:${field}`;

/**
 * Institutes' own Razorpay accounts (decision 0040): connecting one (its keys checked against the
 * gateway, its secrets sealed), disconnecting it, and a gateway per account for the orders,
 * Checkout signatures, webhooks and refunds made on it. The platform's own account (Payments.gateway)
 * takes only plan payments and the orders made before institutes had accounts.
 */
export class MerchantAccounts {
  private readonly deps: MerchantAccountsDeps;
  /** Gateways by account id: an account's keys never change (reconnecting makes a new row). */
  private readonly gateways = new LRUCache<string, PaymentGateway>({ max: 1_000 });
  private readonly build: (keys: GatewayKeys) => PaymentGateway;

  constructor(deps: MerchantAccountsDeps) {
    this.deps = deps;
    this.build = deps.gatewayFor ?? ((keys) => new RazorpayGateway(keys));
  }

  /** The institute's connected account (id and public key id), or null: its paid items are not on sale. */
  async connectedOf(centerId: string): Promise<{ id: string; keyId: string } | null> {
    const [row] = await this.deps.db
      .select({ id: merchantAccounts.id, keyId: merchantAccounts.keyId })
      .from(merchantAccounts)
      .where(and(eq(merchantAccounts.centerId, centerId), eq(merchantAccounts.status, "connected")))
      .limit(1);
    return row ?? null;
  }

  /** The institute's accounts, the connected one first, then the earlier ones (newest first); never a secret. */
  async list(centerId: string): Promise<MerchantAccountJson[]> {
    const rows = await this.deps.db
      .select({ account: merchantAccounts, by: users.name })
      .from(merchantAccounts)
      .leftJoin(users, eq(users.id, merchantAccounts.connectedBy))
      .where(eq(merchantAccounts.centerId, centerId))
      .orderBy(desc(merchantAccounts.connectedAt));
    return rows
      .map(({ account, by }) => this.toJson(account, by))
      .sort((a, b) => (a.status === b.status ? 0 : a.status === "connected" ? -1 : 1));
  }

  /**
   * Connects the institute to the Razorpay account these keys open: checked against the gateway
   * first (wrong keys are refused and nothing is stored), refused when the account is connected to
   * another institute or this one already has one.
   */
  async connectWithKeys(userId: string, centerId: string, input: unknown): Promise<MerchantAccountJson> {
    const { keyId, keySecret, webhookSecret } = parseWith(ConnectKeysSchema, input);
    const { config, box, db, logger } = this.deps;
    if (config.mode === "off") throw new HttpError(503, MERCHANT_TEXTS.paymentsOff);
    if (!box) throw new HttpError(503, MERCHANT_TEXTS.noSecretsKey);
    // The sandbox's documented sealing key protects nothing: only its own test accounts go under it.
    if ((config.sandbox || box.sandboxDefault) && !sandboxAccount(keyId))
      throw badRequest(MERCHANT_TEXTS.sandboxKeysOnly);
    if (await this.connectedOf(centerId)) throw conflict(MERCHANT_TEXTS.alreadyConnected);
    if (await this.keyConnected(keyId)) throw conflict(MERCHANT_TEXTS.usedElsewhere);
    let accepted: boolean;
    try {
      accepted = await this.build({ ...this.platformKeys(), keyId, keySecret, webhookSecret }).checkKeys();
    } catch (error) {
      logger.warn("could not check a merchant account's keys", { error, keyId });
      throw new HttpError(502, MERCHANT_TEXTS.gatewayDown);
    }
    if (!accepted) throw badRequest(MERCHANT_TEXTS.wrongKeys);
    const id = crypto.randomUUID();
    try {
      const row = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(merchantAccounts)
          .values({
            id,
            centerId,
            method: "keys",
            keyId,
            keySecretSealed: box.seal(keySecret, sealedAs(id, "keySecret")),
            webhookSecretSealed: box.seal(webhookSecret, sealedAs(id, "webhookSecret")),
            connectedBy: userId,
          })
          .returning();
        // The site's pages (and their Buy buttons) are rendered again.
        await tx
          .update(centers)
          .set({ merchantAccountId: id, siteVersion: sql`${centers.siteVersion} + 1` })
          .where(eq(centers.id, centerId));
        return created;
      });
      this.deps.centerChanged();
      logger.info("merchant account connected", { centerId, accountId: id, keyId, method: "keys" });
      return this.toJson(row, null);
    } catch (error) {
      // Connected meanwhile, here or elsewhere: the unique indexes decide.
      if (isUniqueViolation(error, "merchant_accounts_key_connected_key")) throw conflict(MERCHANT_TEXTS.usedElsewhere);
      if (isUniqueViolation(error, "merchant_accounts_center_connected_key"))
        throw conflict(MERCHANT_TEXTS.alreadyConnected);
      throw error;
    }
  }

  /** Disconnects the institute's account: its paid items are off sale until another is connected. */
  async disconnect(userId: string, centerId: string): Promise<MerchantAccountJson> {
    const row = await this.deps.db.transaction(async (tx) => {
      const [ended] = await tx
        .update(merchantAccounts)
        .set({ status: "disconnected", disconnectedAt: new Date(), disconnectedBy: userId })
        .where(and(eq(merchantAccounts.centerId, centerId), eq(merchantAccounts.status, "connected")))
        .returning();
      if (!ended) throw notFound(MERCHANT_TEXTS.notConnectedYet);
      // The site's pages (and their Buy buttons) are rendered again.
      await tx
        .update(centers)
        .set({ merchantAccountId: null, siteVersion: sql`${centers.siteVersion} + 1` })
        .where(eq(centers.id, centerId));
      return ended;
    });
    this.deps.centerChanged();
    this.deps.logger.info("merchant account disconnected", { centerId, accountId: row.id });
    return this.toJson(row, null);
  }

  /**
   * The gateway of an account (connected or not: an order made on an account that was disconnected
   * since is still verified and refunded through it).
   */
  async gateway(accountId: string): Promise<PaymentGateway> {
    const known = this.gateways.get(accountId);
    if (known) return known;
    const [row] = await this.deps.db.select().from(merchantAccounts).where(eq(merchantAccounts.id, accountId));
    if (!row) throw new GatewayError(`unknown merchant account ${accountId}`);
    if (!this.deps.box) throw new GatewayError("SECRETS_KEY is not set: merchant accounts' secrets cannot be opened");
    const gateway = this.build({
      ...this.platformKeys(),
      keyId: row.keyId,
      keySecret: this.deps.box.open(row.keySecretSealed, sealedAs(row.id, "keySecret")),
      webhookSecret: this.deps.box.open(row.webhookSecretSealed, sealedAs(row.id, "webhookSecret")),
    });
    this.gateways.set(accountId, gateway);
    return gateway;
  }

  private platformKeys(): GatewayKeys {
    const { keyId, keySecret, webhookSecret, apiUrl, checkoutScript, sandbox } = this.deps.config;
    return { keyId, keySecret, webhookSecret, apiUrl, checkoutScript, sandbox };
  }

  private async keyConnected(keyId: string): Promise<boolean> {
    const [row] = await this.deps.db
      .select({ id: merchantAccounts.id })
      .from(merchantAccounts)
      .where(and(eq(merchantAccounts.keyId, keyId), eq(merchantAccounts.status, "connected")))
      .limit(1);
    return Boolean(row);
  }

  private toJson(row: AccountRow, by: string | null): MerchantAccountJson {
    return {
      id: row.id,
      method: row.method,
      keyId: row.keyId,
      status: row.status,
      connectedAt: row.connectedAt.toISOString(),
      connectedBy: by,
      disconnectedAt: row.disconnectedAt?.toISOString() ?? null,
      webhookUrl: this.deps.webhookUrl(row.id),
    };
  }
}

/**
 * Connects an institute to a sandbox test account without asking the gateway (the demo's
 * institutes, and tests' institutes): the sandbox accepts every well-formed test account.
 */
export async function connectSandboxAccount(
  db: DbOrTx,
  box: SecretBox,
  centerId: string,
  account: { keyId: string; keySecret: string; webhookSecret: string },
  connectedBy: string | null = null,
): Promise<string> {
  if (!sandboxAccount(account.keyId)) throw new Error(`${account.keyId} is not a sandbox account`);
  const id = crypto.randomUUID();
  await db.insert(merchantAccounts).values({
    id,
    centerId,
    method: "keys",
    keyId: account.keyId,
    keySecretSealed: box.seal(account.keySecret, sealedAs(id, "keySecret")),
    webhookSecretSealed: box.seal(account.webhookSecret, sealedAs(id, "webhookSecret")),
    connectedBy,
  });
  await db.update(centers).set({ merchantAccountId: id }).where(eq(centers.id, centerId));
  return id;
}
