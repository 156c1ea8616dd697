import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { LRUCache } from "lru-cache";
import { centers, merchantAccounts, merchantOauthStates, users } from "../db/schema/index.ts";
import type { Db, DbOrTx, Tx } from "../db/types.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { HttpError, badRequest, conflict, forbidden, notFound, parseWith } from "../http/errors.ts";
import type { Logger } from "../runtime/logger.ts";
import { ConnectKeysSchema, MERCHANT_TEXTS, type MerchantAccountJson } from "#common/validation/merchant-account.ts";
import type { PaymentConfig } from "./config.ts";
import { GatewayError, type PaymentGateway } from "./gateway.ts";
import { RazorpayGateway, type GatewayKeys } from "./razorpay.ts";
import type { SecretBox } from "./secrets.ts";
import { sandboxAccount, sandboxAccountOfPublicToken } from "./sandbox/accounts.ts";
import { OAuthGateway, RazorpayOAuth, TokenRefused, type AccessTokens, type OAuthTokens } from "./oauth.ts";
import type { PartnerRevocations } from "./webhooks.ts";
import { newNonce, readState, sessionTag, signState, STATE_TTL_MS } from "./oauth-state.ts";

type AccountRow = typeof merchantAccounts.$inferSelect;

export interface MerchantAccountsDeps {
  db: Db;
  config: PaymentConfig;
  /** Null when the server has no SECRETS_KEY and no sandbox: nothing can be connected. */
  box: SecretBox | null;
  logger: Logger;
  /** The webhook URL of an account, on the platform's own address (never from a request's Host). */
  webhookUrl: (accountId: string) => string;
  /** A path on the platform's own configured address (never from a request's Host or forwarded headers). */
  platformUrl: (path: string) => string;
  /** The institute's row changed (its cached site, and so its catalog, are read again). */
  centerChanged: () => void;
  /** Builds a gateway for keys (tests replace it). */
  gatewayFor?: (keys: GatewayKeys) => PaymentGateway;
}

/** The associated data a secret is sealed with: its row and column. */
const sealedAs = (accountId: string, field: "keySecret" | "webhookSecret" | "accessToken" | "refreshToken") =>
  `merchant_accounts:${accountId}:${field}`;

/** Where Razorpay sends the owner back after 'Connect with Razorpay' (on the platform's address). */
export const OAUTH_CALLBACK_PATH = "/api/institute/payment-account/razorpay/callback";
/** An access token this close to its end is refreshed before it is used. */
const REFRESH_EARLY_MS = 5 * 60 * 1000;

/** Who is finishing (or starting) a 'Connect with Razorpay': the person and their session. */
export interface OAuthCaller {
  userId: string;
  sessionId: string;
}

/**
 * Institutes' own Razorpay accounts (decision 0040): connecting one (its keys checked against the
 * gateway, its secrets sealed), disconnecting it, and a gateway per account for the orders,
 * Checkout signatures, webhooks and refunds made on it. The platform's own account (Payments.gateway)
 * takes only plan payments and the orders made before institutes had accounts.
 */
export class MerchantAccounts implements PartnerRevocations {
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
    const { config, box, logger } = this.deps;
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
    const row = await this.connect(centerId, (id) => ({
      method: "keys",
      keyId,
      keySecretSealed: box.seal(keySecret, sealedAs(id, "keySecret")),
      webhookSecretSealed: box.seal(webhookSecret, sealedAs(id, "webhookSecret")),
      connectedBy: userId,
    }));
    logger.info("merchant account connected", { centerId, accountId: row.id, keyId, method: "keys" });
    return this.toJson(row, null);
  }

  /**
   * Stores the institute's new account as its connected one (the site's pages, and their Buy
   * buttons, are rendered again). An account connected meanwhile, here or to another institute,
   * is refused by the unique indexes.
   */
  private async connect(
    centerId: string,
    columns: (id: string) => Omit<typeof merchantAccounts.$inferInsert, "id" | "centerId">,
  ) {
    const id = crypto.randomUUID();
    try {
      const row = await this.deps.db.transaction(async (tx) => {
        const [created] = await tx
          .insert(merchantAccounts)
          .values({ id, centerId, ...columns(id) })
          .returning();
        await tx
          .update(centers)
          .set({ merchantAccountId: id, siteVersion: sql`${centers.siteVersion} + 1` })
          .where(eq(centers.id, centerId));
        return created;
      });
      this.deps.centerChanged();
      return row;
    } catch (error) {
      if (
        isUniqueViolation(error, "merchant_accounts_key_connected_key") ||
        isUniqueViolation(error, "merchant_accounts_razorpay_account_connected_key")
      )
        throw conflict(MERCHANT_TEXTS.usedElsewhere);
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
    const { box, config } = this.deps;
    if (!box) throw new GatewayError("SECRETS_KEY is not set: merchant accounts' secrets cannot be opened");
    let gateway: PaymentGateway;
    if (row.method === "oauth") {
      // An account connected by OAuth: bearer tokens; the partner's secrets sign its Checkout and webhooks.
      const partner = config.partner;
      if (!partner)
        throw new GatewayError(`account ${accountId} was connected by OAuth, but no partner application is set`);
      gateway = new OAuthGateway({
        name: config.sandbox ? "sandbox" : "razorpay",
        publicToken: row.keyId,
        checkoutScript: config.checkoutScript,
        tokens: this.accessTokens(row.id),
        checkoutSecret: partner.clientSecret,
        webhookSecret: partner.webhookSecret,
        build: (accessToken) =>
          this.build({
            ...this.platformKeys(),
            keyId: row.keyId,
            keySecret: partner.clientSecret,
            webhookSecret: partner.webhookSecret,
            oauthToken: accessToken,
          }),
      });
    } else {
      if (!row.keySecretSealed || !row.webhookSecretSealed) throw new GatewayError(`account ${accountId} has no keys`);
      gateway = this.build({
        ...this.platformKeys(),
        keyId: row.keyId,
        keySecret: box.open(row.keySecretSealed, sealedAs(row.id, "keySecret")),
        webhookSecret: box.open(row.webhookSecretSealed, sealedAs(row.id, "webhookSecret")),
      });
    }
    this.gateways.set(accountId, gateway);
    return gateway;
  }

  /** A page on the platform's own address (Website Details there, where 'Connect with Razorpay' works). */
  platformPage(path: string): string {
    return this.deps.platformUrl(path);
  }

  /** Whether owners can connect with Razorpay (the platform has partner credentials, payments are on). */
  oauthAvailable(): boolean {
    return Boolean(this.oauth() && this.deps.box);
  }

  private oauthClient: RazorpayOAuth | null | undefined;
  private oauth(): RazorpayOAuth | null {
    if (this.oauthClient === undefined) {
      const { partner, mode } = this.deps.config;
      this.oauthClient =
        partner && mode !== "off"
          ? new RazorpayOAuth(partner, this.deps.platformUrl(OAUTH_CALLBACK_PATH), this.deps.platformUrl)
          : null;
    }
    return this.oauthClient;
  }

  private stateKey(box: SecretBox): Buffer {
    return box.derive("razorpay-oauth-state");
  }

  /**
   * 'Connect with Razorpay' pressed: a state for this owner's session and institute (signed,
   * recorded to be used once, for ten minutes) and the authorize URL to send their browser to.
   */
  async startOAuth(caller: OAuthCaller, centerId: string): Promise<string> {
    const oauth = this.oauth();
    const { box, db } = this.deps;
    if (this.deps.config.mode === "off") throw new HttpError(503, MERCHANT_TEXTS.paymentsOff);
    if (!oauth) throw new HttpError(503, MERCHANT_TEXTS.oauthUnavailable);
    if (!box) throw new HttpError(503, MERCHANT_TEXTS.noSecretsKey);
    if (await this.connectedOf(centerId)) throw conflict(MERCHANT_TEXTS.alreadyConnected);
    const key = this.stateKey(box);
    const nonce = newNonce();
    const expiresAt = new Date(Date.now() + STATE_TTL_MS);
    // States a day past their end are of no use to anyone: they go as new ones come.
    await db.delete(merchantOauthStates).where(lt(merchantOauthStates.expiresAt, new Date(Date.now() - 86_400_000)));
    await db.insert(merchantOauthStates).values({
      id: nonce,
      centerId,
      userId: caller.userId,
      sessionId: sessionTag(key, caller.sessionId),
      expiresAt,
    });
    const state = signState(key, {
      nonce,
      centerId,
      userId: caller.userId,
      sessionTag: sessionTag(key, caller.sessionId),
      expiresAt,
    });
    return oauth.authorizeUrl(state);
  }

  /**
   * Razorpay sent the owner back with a code (or an error) and the state: the state is checked
   * (ours, unexpired, unused, this person's session) and used up, the code exchanged for the
   * account's tokens, and the account connected (sealed tokens, method 'oauth') unless it is
   * connected to another institute or this one already has one. Refusals store nothing.
   */
  async finishOAuth(
    caller: OAuthCaller,
    query: { code?: string; state?: string; error?: string },
  ): Promise<{ centerId: string; account: MerchantAccountJson }> {
    const oauth = this.oauth();
    const { box, db, logger, config } = this.deps;
    if (!oauth) throw new HttpError(503, MERCHANT_TEXTS.oauthUnavailable);
    if (!box) throw new HttpError(503, MERCHANT_TEXTS.noSecretsKey);
    const key = this.stateKey(box);
    const read = readState(key, query.state);
    if (!read.ok)
      throw badRequest(read.reason === "expired" ? MERCHANT_TEXTS.stateExpired : MERCHANT_TEXTS.stateForged);
    const { claims } = read;
    if (claims.userId !== caller.userId || claims.sessionTag !== sessionTag(key, caller.sessionId))
      throw forbidden(MERCHANT_TEXTS.stateNotYours);
    const now = new Date();
    const [used] = await db
      .update(merchantOauthStates)
      .set({ usedAt: now })
      .where(
        and(
          eq(merchantOauthStates.id, claims.nonce),
          eq(merchantOauthStates.centerId, claims.centerId),
          eq(merchantOauthStates.userId, claims.userId),
          isNull(merchantOauthStates.usedAt),
          gt(merchantOauthStates.expiresAt, now),
        ),
      )
      .returning();
    if (!used) {
      const [seen] = await db.select().from(merchantOauthStates).where(eq(merchantOauthStates.id, claims.nonce));
      throw badRequest(
        seen?.usedAt ? MERCHANT_TEXTS.stateUsed : seen ? MERCHANT_TEXTS.stateExpired : MERCHANT_TEXTS.stateForged,
      );
    }
    const { centerId } = claims;
    if (query.error || !query.code) throw badRequest(MERCHANT_TEXTS.oauthDenied);
    const [owned] = await db
      .select({ id: centers.id })
      .from(centers)
      .where(and(eq(centers.id, centerId), eq(centers.ownerId, caller.userId)));
    if (!owned) throw forbidden(MERCHANT_TEXTS.stateNotYours);
    if (await this.connectedOf(centerId)) throw conflict(MERCHANT_TEXTS.alreadyConnected);
    let tokens: OAuthTokens;
    try {
      tokens = await oauth.exchange(query.code);
    } catch (error) {
      if (error instanceof TokenRefused) {
        logger.warn("Razorpay refused an OAuth code", { centerId, error: error.message });
        throw badRequest(MERCHANT_TEXTS.codeRefused);
      }
      logger.warn("could not exchange an OAuth code", { centerId, error });
      throw new HttpError(502, MERCHANT_TEXTS.oauthGatewayDown);
    }
    if ((config.sandbox || box.sandboxDefault) && !sandboxAccountOfPublicToken(tokens.publicToken))
      throw badRequest(MERCHANT_TEXTS.sandboxKeysOnly);
    if (
      (await this.razorpayAccountConnected(tokens.razorpayAccountId)) ||
      (await this.keyConnected(tokens.publicToken))
    ) {
      await this.revokeUnused(oauth, tokens, centerId);
      throw conflict(MERCHANT_TEXTS.usedElsewhere);
    }
    let row: AccountRow;
    try {
      row = await this.connect(centerId, (id) => ({
        method: "oauth",
        keyId: tokens.publicToken,
        razorpayAccountId: tokens.razorpayAccountId,
        accessTokenSealed: box.seal(tokens.accessToken, sealedAs(id, "accessToken")),
        refreshTokenSealed: box.seal(tokens.refreshToken, sealedAs(id, "refreshToken")),
        tokenExpiresAt: tokens.expiresAt,
        connectedBy: caller.userId,
      }));
    } catch (error) {
      // Connected meanwhile, here or elsewhere: these tokens will never be used either.
      if (error instanceof HttpError) await this.revokeUnused(oauth, tokens, centerId);
      throw error;
    }
    logger.info("merchant account connected", {
      centerId,
      accountId: row.id,
      razorpayAccountId: tokens.razorpayAccountId,
      method: "oauth",
    });
    return { centerId, account: this.toJson(row, null) };
  }

  /** The access tokens of an account connected by OAuth, read (and refreshed) from its row. */
  private accessTokens(accountId: string): AccessTokens {
    return {
      current: async () => {
        const { box, db } = this.deps;
        const [row] = await db.select().from(merchantAccounts).where(eq(merchantAccounts.id, accountId));
        if (!row?.accessTokenSealed || !box) throw new GatewayError(`account ${accountId} has no access token`);
        if (row.revokedAt) throw new GatewayError(`account ${accountId}: Razorpay revoked the platform's access`, 401);
        const token = box.open(row.accessTokenSealed, sealedAs(row.id, "accessToken"));
        if (row.tokenExpiresAt && row.tokenExpiresAt.getTime() <= Date.now() + REFRESH_EARLY_MS)
          return this.refreshAccessToken(accountId, token);
        return token;
      },
      replace: (refused) => this.refreshAccessToken(accountId, refused),
    };
  }

  /**
   * A new access token for an account whose token `refused` was refused or ran out: under the
   * row's lock, so that of several requests (or instances) only one refreshes and the others take
   * its token. A refresh token Razorpay refuses means the owner revoked the platform's access: the
   * account is disconnected (`revokedAt`), its paid items go off sale and the owner is told on
   * Website Details.
   */
  private async refreshAccessToken(accountId: string, refused: string): Promise<string> {
    const { box, db, logger } = this.deps;
    const oauth = this.oauth();
    if (!box || !oauth) throw new GatewayError("tokens cannot be refreshed: no partner application or SECRETS_KEY");
    const outcome = await db.transaction(async (tx) => {
      const [row] = await tx.select().from(merchantAccounts).where(eq(merchantAccounts.id, accountId)).for("update");
      if (!row?.accessTokenSealed || !row.refreshTokenSealed)
        throw new GatewayError(`account ${accountId} has no tokens`);
      if (row.revokedAt) return { revoked: true as const, centerId: row.centerId, already: true };
      const stored = box.open(row.accessTokenSealed, sealedAs(row.id, "accessToken"));
      const fresh = row.tokenExpiresAt !== null && row.tokenExpiresAt.getTime() > Date.now() + REFRESH_EARLY_MS;
      if (stored !== refused && fresh) return { token: stored };
      let tokens: OAuthTokens;
      try {
        tokens = await oauth.refresh(box.open(row.refreshTokenSealed, sealedAs(row.id, "refreshToken")));
      } catch (error) {
        if (!(error instanceof TokenRefused)) throw error;
        await markRevoked(tx, row);
        return { revoked: true as const, centerId: row.centerId, already: false };
      }
      await tx
        .update(merchantAccounts)
        .set({
          accessTokenSealed: box.seal(tokens.accessToken, sealedAs(row.id, "accessToken")),
          refreshTokenSealed: box.seal(tokens.refreshToken, sealedAs(row.id, "refreshToken")),
          tokenExpiresAt: tokens.expiresAt,
        })
        .where(eq(merchantAccounts.id, accountId));
      return { token: tokens.accessToken, refreshed: true };
    });
    if ("revoked" in outcome) {
      if (!outcome.already) {
        this.deps.centerChanged();
        logger.warn("Razorpay refused a merchant account's refresh token: the account needs reconnecting", {
          centerId: outcome.centerId,
          accountId,
        });
      }
      throw new GatewayError(`account ${accountId}: Razorpay revoked the platform's access`, 401);
    }
    if ("refreshed" in outcome) logger.info("merchant account access token refreshed", { accountId });
    return outcome.token;
  }

  /**
   * The partner webhook said the owner revoked the platform's access to this Razorpay account
   * (`account.app.authorization_revoked`): its connected OAuth account is disconnected as revoked
   * in `tx` (the delivery's transaction), exactly as a refused refresh token does. `after` gets what
   * runs once it has committed (the site is rendered again). False when no such account is connected.
   */
  async revoke(tx: Tx, razorpayAccountId: string, after: (effect: () => void) => void): Promise<boolean> {
    const [row] = await tx
      .select()
      .from(merchantAccounts)
      .where(
        and(
          eq(merchantAccounts.razorpayAccountId, razorpayAccountId),
          eq(merchantAccounts.method, "oauth"),
          eq(merchantAccounts.status, "connected"),
        ),
      )
      .for("update");
    if (!row) return false;
    await markRevoked(tx, row);
    after(() => {
      this.deps.centerChanged();
      this.deps.logger.warn("Razorpay says the owner revoked the platform's access: the account needs reconnecting", {
        centerId: row.centerId,
        accountId: row.id,
        razorpayAccountId,
      });
    });
    return true;
  }

  /** The Razorpay account (`acc_…`) an account connected by OAuth acts for; null for one connected by keys. */
  async razorpayAccountOf(accountId: string): Promise<string | null> {
    const [row] = await this.deps.db
      .select({ method: merchantAccounts.method, razorpayAccountId: merchantAccounts.razorpayAccountId })
      .from(merchantAccounts)
      .where(eq(merchantAccounts.id, accountId));
    return row?.method === "oauth" ? row.razorpayAccountId : null;
  }

  /**
   * Tokens Razorpay gave for an account the platform will not use (it is connected to another
   * institute) are revoked there at once, the access token and the refresh token; a failure is
   * logged (the owner has been told the connection was refused, never that it worked).
   */
  private async revokeUnused(oauth: RazorpayOAuth, tokens: OAuthTokens, centerId: string): Promise<void> {
    const { logger } = this.deps;
    for (const [token, hint] of [
      [tokens.accessToken, "access_token"],
      [tokens.refreshToken, "refresh_token"],
    ] as const) {
      try {
        await oauth.revoke(token, hint);
      } catch (error) {
        logger.warn("could not revoke at Razorpay the tokens of an account connected elsewhere", {
          centerId,
          razorpayAccountId: tokens.razorpayAccountId,
          tokenType: hint,
          error,
        });
        return;
      }
    }
    logger.info("revoked at Razorpay the tokens of an account connected elsewhere", {
      centerId,
      razorpayAccountId: tokens.razorpayAccountId,
    });
  }

  private platformKeys(): GatewayKeys {
    const { keyId, keySecret, webhookSecret, apiUrl, checkoutScript, sandbox } = this.deps.config;
    return { keyId, keySecret, webhookSecret, apiUrl, checkoutScript, sandbox };
  }

  private async razorpayAccountConnected(razorpayAccountId: string): Promise<boolean> {
    const [row] = await this.deps.db
      .select({ id: merchantAccounts.id })
      .from(merchantAccounts)
      .where(and(eq(merchantAccounts.razorpayAccountId, razorpayAccountId), eq(merchantAccounts.status, "connected")))
      .limit(1);
    return Boolean(row);
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
      razorpayAccountId: row.razorpayAccountId,
      status: row.status,
      needsReconnection: row.revokedAt !== null,
      connectedAt: row.connectedAt.toISOString(),
      connectedBy: by,
      disconnectedAt: row.disconnectedAt?.toISOString() ?? null,
      webhookUrl: this.deps.webhookUrl(row.id),
    };
  }
}

/**
 * Disconnects an account connected by OAuth whose access Razorpay says was revoked (a refused
 * refresh token, or the partner webhook's `account.app.authorization_revoked`): `revoked_at`, and
 * the institute's paid items go off sale (its pages are rendered again). Website Details then asks
 * the owner to connect again.
 */
async function markRevoked(tx: Tx, row: AccountRow): Promise<void> {
  const now = new Date();
  await tx
    .update(merchantAccounts)
    .set({ status: "disconnected", revokedAt: now, disconnectedAt: now, disconnectedBy: null })
    .where(eq(merchantAccounts.id, row.id));
  await tx
    .update(centers)
    .set({ merchantAccountId: null, siteVersion: sql`${centers.siteVersion} + 1` })
    .where(and(eq(centers.id, row.centerId), eq(centers.merchantAccountId, row.id)));
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
