import * as v from "valibot";
import type { PartnerConfig } from "./config.ts";
import {
  GatewayError,
  type CheckoutResult,
  type CreateGatewayCustomer,
  type CreateGatewayOrder,
  type CreateGatewayRefund,
  type CreateMandateOrder,
  type CreatePaymentLink,
  type CreateRecurringPayment,
  type GatewayOrder,
  type GatewayPayment,
  type GatewayPaymentLink,
  type GatewayRefund,
  type GatewayToken,
  type PaymentGateway,
} from "./gateway.ts";
import { checkoutSignature, signaturesMatch, webhookSignature } from "./signatures.ts";

/**
 * Razorpay's partner OAuth ('Connect with Razorpay'): the authorize URL the owner's browser is
 * sent to, the token endpoint the server exchanges a code (or a refresh token) at for an
 * account's access token, refresh token and public token, and the revoke endpoint.
 */

export interface OAuthTokens {
  accessToken: string;
  refreshToken: string;
  /** The key Checkout is opened with for this account (`rzp_…_oauth_…`). */
  publicToken: string;
  /** The Razorpay account (`acc_…`) that granted access. */
  razorpayAccountId: string;
  expiresAt: Date;
}

/** The token endpoint refused the code or refresh token (used, expired, revoked or made up). */
export class TokenRefused extends Error {}

const TOKEN_TIMEOUT_MS = 15_000;

const TokenResponse = v.object({
  access_token: v.pipe(v.string(), v.nonEmpty()),
  refresh_token: v.pipe(v.string(), v.nonEmpty()),
  public_token: v.pipe(v.string(), v.nonEmpty()),
  razorpay_account_id: v.pipe(v.string(), v.nonEmpty()),
  expires_in: v.pipe(v.number(), v.integer(), v.minValue(1)),
});

export class RazorpayOAuth {
  readonly partner: PartnerConfig;
  /** The platform's callback (Razorpay redirects there; it must be the one registered with the application). */
  readonly redirectUri: string;
  private readonly resolve: (path: string) => string;

  /** `resolve` makes a path (the sandbox's authorize page) an address on the platform. */
  constructor(partner: PartnerConfig, redirectUri: string, resolve: (path: string) => string) {
    this.partner = partner;
    this.redirectUri = redirectUri;
    this.resolve = resolve;
  }

  authorizeUrl(state: string): string {
    const base = this.partner.authorizeUrl.startsWith("/")
      ? this.resolve(this.partner.authorizeUrl)
      : this.partner.authorizeUrl;
    const url = new URL(base);
    url.searchParams.set("client_id", this.partner.clientId);
    url.searchParams.set("response_type", "code");
    url.searchParams.set("redirect_uri", this.redirectUri);
    url.searchParams.set("scope", "read_write");
    url.searchParams.set("state", state);
    return url.toString();
  }

  exchange(code: string): Promise<OAuthTokens> {
    return this.token({ grant_type: "authorization_code", code, redirect_uri: this.redirectUri });
  }

  refresh(refreshToken: string): Promise<OAuthTokens> {
    return this.token({ grant_type: "refresh_token", refresh_token: refreshToken });
  }

  /**
   * Revokes a token at Razorpay's revoke endpoint (the platform will not use it). Throws a
   * GatewayError when the endpoint cannot be reached or does not answer 2xx.
   */
  async revoke(token: string, hint: "access_token" | "refresh_token"): Promise<void> {
    const res = await this.post(this.partner.revokeUrl, "revoke", { token, token_type_hint: hint });
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
      const description = body?.error_description ?? (body?.error as { description?: string })?.description;
      throw new GatewayError(`revoke endpoint answered ${res.status}: ${String(description ?? "")}`, res.status);
    }
    await res.body?.cancel();
  }

  /** POSTs the partner's client id and secret with `fields` to one of Razorpay's auth endpoints. */
  private async post(url: string, name: string, fields: Record<string, string>): Promise<Response> {
    try {
      return await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({
          client_id: this.partner.clientId,
          client_secret: this.partner.clientSecret,
          ...fields,
        }),
        signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
      });
    } catch (error) {
      throw new GatewayError(`${name} endpoint unreachable: ${(error as Error).message}`);
    }
  }

  private async token(grant: Record<string, string>): Promise<OAuthTokens> {
    const res = await this.post(this.partner.tokenUrl, "token", grant);
    const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (res.status >= 400 && res.status < 500) {
      const description = body?.error_description ?? (body?.error as { description?: string })?.description;
      throw new TokenRefused(`token endpoint refused the ${grant.grant_type}: ${String(description ?? res.status)}`);
    }
    const parsed = v.safeParse(TokenResponse, body);
    if (!res.ok || !parsed.success)
      throw new GatewayError(`token endpoint answered ${res.status} without tokens`, res.status);
    const t = parsed.output;
    return {
      accessToken: t.access_token,
      refreshToken: t.refresh_token,
      publicToken: t.public_token,
      razorpayAccountId: t.razorpay_account_id,
      expiresAt: new Date(Date.now() + t.expires_in * 1000),
    };
  }
}

/** Where an OAuth gateway gets its access token, and a fresh one when the gateway refused it. */
export interface AccessTokens {
  /** The stored access token (refreshed first when it has expired or is about to). */
  current(): Promise<string>;
  /**
   * A new access token after `refused` was refused: refreshed once (or the one another request
   * refreshed meanwhile). Throws a GatewayError when Razorpay refuses the refresh token too (the
   * account is then marked as needing reconnection).
   */
  replace(refused: string): Promise<string>;
}

/**
 * The gateway of an account connected by OAuth: the same Razorpay API, authenticated with
 * `Authorization: Bearer <access token>` instead of the account's key id and secret. An access
 * token the API refuses (401) is refreshed once and the call made again. Checkout is opened with
 * the account's public token; Checkout results are signed with the partner's client secret and
 * webhooks with the partner webhook's secret (the account has no secret of its own here).
 */
export class OAuthGateway implements PaymentGateway {
  readonly name: string;
  readonly keyId: string;
  readonly checkoutScript: string;
  private readonly tokens: AccessTokens;
  private readonly checkoutSecret: string;
  private readonly webhookSecret: string;
  private readonly build: (accessToken: string) => PaymentGateway;
  /** The gateway of the last access token (a new one is built when the token changes). */
  private last: { token: string; gateway: PaymentGateway } | null = null;

  constructor(options: {
    name: string;
    publicToken: string;
    checkoutScript: string;
    tokens: AccessTokens;
    /** The partner's client secret (Checkout results) and partner webhook secret. */
    checkoutSecret: string;
    webhookSecret: string;
    /** A key-less gateway calling the API with this bearer token and checking with the partner's secrets. */
    build: (accessToken: string) => PaymentGateway;
  }) {
    this.name = options.name;
    this.keyId = options.publicToken;
    this.checkoutScript = options.checkoutScript;
    this.tokens = options.tokens;
    this.checkoutSecret = options.checkoutSecret;
    this.webhookSecret = options.webhookSecret;
    this.build = options.build;
  }

  private with(token: string): PaymentGateway {
    if (this.last?.token !== token) this.last = { token, gateway: this.build(token) };
    return this.last.gateway;
  }

  /** Runs `call` with the current token; a 401 refreshes the token once and runs it again. */
  private async authorised<T>(call: (gateway: PaymentGateway) => Promise<T>, refused: (result: T) => boolean) {
    const token = await this.tokens.current();
    try {
      const result = await call(this.with(token));
      if (!refused(result)) return result;
    } catch (error) {
      if (!(error instanceof GatewayError) || error.status !== 401) throw error;
    }
    return call(this.with(await this.tokens.replace(token)));
  }

  createOrder(input: CreateGatewayOrder): Promise<GatewayOrder> {
    return this.authorised(
      (g) => g.createOrder(input),
      () => false,
    );
  }

  refund(input: CreateGatewayRefund): Promise<GatewayRefund> {
    return this.authorised(
      (g) => g.refund(input),
      () => false,
    );
  }

  createPaymentLink(input: CreatePaymentLink): Promise<GatewayPaymentLink> {
    return this.authorised(
      (g) => g.createPaymentLink(input),
      () => false,
    );
  }

  createCustomer(input: CreateGatewayCustomer): Promise<{ id: string }> {
    return this.authorised(
      (g) => g.createCustomer(input),
      () => false,
    );
  }

  createMandateOrder(input: CreateMandateOrder): Promise<GatewayOrder> {
    return this.authorised(
      (g) => g.createMandateOrder(input),
      () => false,
    );
  }

  fetchPayment(paymentId: string): Promise<GatewayPayment> {
    return this.authorised(
      (g) => g.fetchPayment(paymentId),
      () => false,
    );
  }

  fetchToken(customerId: string, tokenId: string): Promise<GatewayToken> {
    return this.authorised(
      (g) => g.fetchToken(customerId, tokenId),
      () => false,
    );
  }

  createRecurringPayment(input: CreateRecurringPayment): Promise<{ paymentId: string }> {
    return this.authorised(
      (g) => g.createRecurringPayment(input),
      () => false,
    );
  }

  cancelToken(customerId: string, tokenId: string): Promise<void> {
    return this.authorised(
      (g) => g.cancelToken(customerId, tokenId),
      () => false,
    );
  }

  checkKeys(): Promise<boolean> {
    return this.authorised(
      (g) => g.checkKeys(),
      (accepted) => !accepted,
    );
  }

  verifyCheckout({ orderId, paymentId, signature }: CheckoutResult): boolean {
    return signaturesMatch(checkoutSignature(this.checkoutSecret, orderId, paymentId), signature);
  }

  verifyWebhook(rawBody: string, signature: string | undefined): boolean {
    if (!signature) return false;
    return signaturesMatch(webhookSignature(this.webhookSecret, rawBody), signature);
  }
}
