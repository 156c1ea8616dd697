import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Context, Hono } from "hono";
import { LRUCache } from "lru-cache";
import { SANDBOX_KEY_SECRET, type PartnerConfig } from "../config.ts";
import {
  newSandboxAccount,
  sandboxAccount,
  sandboxAccountId,
  sandboxAccountOfId,
  sandboxPublicToken,
  type SandboxAccount,
} from "./accounts.ts";

/**
 * The sandbox's Razorpay OAuth (auth.razorpay.com's stand-in), for the platform's partner
 * application: the authorize page an owner allows access on (it shows which sandbox account is
 * connected), the token endpoint (authorization_code and refresh_token grants), revoking (by the
 * partner, one authorisation; or by the account holder in its "Dashboard", all of the account's
 * access, with the partner webhook's `account.app.authorization_revoked`), and the Bearer tokens
 * the sandbox's API accepts for its accounts.
 *
 * Tokens are signed, not stored, so a connection outlives a restart of the sandbox as an account
 * does. What is kept in memory is only what a restart may forget: unused codes (ten minutes),
 * and the accounts whose access was revoked, or whose access tokens were made to run out
 * (`POST /oauth/expire`, the sandbox's way to show a token expiring without waiting 91 days).
 */

/** Razorpay's access tokens last 90 days or so. */
export const SANDBOX_TOKEN_TTL_SECONDS = 7_862_400;
const CODE_TTL_MS = 10 * 60 * 1000;

interface TokenClaims {
  kind: "at" | "rt";
  keyId: string;
  /** When it was issued (ms), and its place in this process's order of issue. */
  issuedAt: number;
  seq: number;
  /** The authorisation it came from (a code's exchange; refreshing keeps it), if it names one. */
  grant?: string;
}

export interface SandboxOAuth {
  /** The account a Bearer access token acts for, unless it is forged, expired or revoked. */
  accountOfAccessToken(token: string): SandboxAccount | undefined;
}

const b64 = (b: Buffer) => b.toString("base64url");
const sign = (text: string) => b64(createHmac("sha256", SANDBOX_KEY_SECRET).update(`sandbox-oauth|${text}`).digest());
const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

export function mountSandboxOAuth(
  app: Hono,
  partner: PartnerConfig | null,
  /** Delivers the partner webhook's `account.app.authorization_revoked` about this account. */
  accessRevoked: (account: SandboxAccount) => void,
): SandboxOAuth {
  let seq = 0;
  const codes = new LRUCache<string, { redirectUri: string; keyId: string; expiresAt: number }>({ max: 10_000 });
  /** Account key id → the last token number revoked, or made to run out (access tokens only). */
  const revokedUpTo = new Map<string, number>();
  const expiredUpTo = new Map<string, number>();
  /** Authorisations whose tokens were revoked at `/oauth/revoke` (the others of the account stay good). */
  const revokedGrants = new LRUCache<string, true>({ max: 100_000 });

  const mint = (kind: "at" | "rt", keyId: string, grant: string) => {
    const payload = b64(
      Buffer.from(JSON.stringify({ k: kind, a: keyId, i: Date.now(), q: ++seq, g: grant, n: b64(randomBytes(6)) })),
    );
    return `sbx_${kind}_${payload}.${sign(payload)}`;
  };
  /** A token's claims if the sandbox signed it, whether or not it is still good. */
  const signed = (token: string, kind: "at" | "rt"): TokenClaims | undefined => {
    const match = /^sbx_(at|rt)_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{43})$/.exec(token);
    if (!match || match[1] !== kind || !same(sign(match[2]), match[3])) return undefined;
    try {
      const p = JSON.parse(Buffer.from(match[2], "base64url").toString("utf8")) as Record<string, unknown>;
      if (typeof p.a !== "string" || typeof p.i !== "number" || typeof p.q !== "number") return undefined;
      return { kind, keyId: p.a, issuedAt: p.i, seq: p.q, grant: typeof p.g === "string" ? p.g : undefined };
    } catch {
      return undefined;
    }
  };
  /** A token's claims if it is good: signed, not revoked, and (an access token) not run out. */
  const read = (token: string, kind: "at" | "rt"): TokenClaims | undefined => {
    const claims = signed(token, kind);
    if (!claims) return undefined;
    // A token from before a restart carries a number this process has not reached: it is older than any mark.
    const number = claims.seq > seq ? 0 : claims.seq;
    if (number <= (revokedUpTo.get(claims.keyId) ?? 0) && revokedUpTo.has(claims.keyId)) return undefined;
    if (claims.grant && revokedGrants.has(claims.grant)) return undefined;
    if (kind === "at") {
      if (expiredUpTo.has(claims.keyId) && number <= expiredUpTo.get(claims.keyId)!) return undefined;
      if (claims.issuedAt + SANDBOX_TOKEN_TTL_SECONDS * 1000 <= Date.now()) return undefined;
    }
    return claims;
  };
  /** New tokens of an account, of a new authorisation (a code) or of the one being refreshed. */
  const tokens = (account: SandboxAccount, grant = b64(randomBytes(9))) => ({
    token_type: "Bearer",
    expires_in: SANDBOX_TOKEN_TTL_SECONDS,
    access_token: mint("at", account.keyId, grant),
    refresh_token: mint("rt", account.keyId, grant),
    public_token: sandboxPublicToken(account),
    razorpay_account_id: sandboxAccountId(account),
  });

  const oauthError = (c: Context, status: 400 | 401, error: string, description: string) =>
    c.json({ error, error_description: description }, status);

  /** The request's fields, from JSON or a form. */
  const fields = async (c: Context): Promise<Record<string, string>> => {
    const type = c.req.header("content-type") ?? "";
    const raw: unknown = type.includes("application/json")
      ? await c.req.json().catch(() => null)
      : await c.req.parseBody().catch(() => null);
    if (!raw || typeof raw !== "object") return {};
    return Object.fromEntries(
      Object.entries(raw as Record<string, unknown>)
        .filter(([, v]) => typeof v === "string")
        .map(([k, v]) => [k, (v as string).slice(0, 4_000)]),
    );
  };
  const clientOk = (f: Record<string, string>) =>
    Boolean(partner && f.client_id === partner.clientId && same(f.client_secret ?? "", partner.clientSecret));

  /** The authorize request's fields, checked: which client, where to return, which state. */
  const authorizeRequest = (f: Record<string, string>) => {
    if (!partner || f.client_id !== partner.clientId) return { problem: "The client id is not valid." };
    if (f.response_type !== "code")
      return { problem: "The authorization grant type is not supported: response_type must be code." };
    let redirect: URL;
    try {
      redirect = new URL(f.redirect_uri ?? "");
    } catch {
      return { problem: "The redirect URI is not valid." };
    }
    if (redirect.protocol !== "http:" && redirect.protocol !== "https:")
      return { problem: "The redirect URI is not valid." };
    return { redirect, state: f.state ?? "", scope: f.scope ?? "" };
  };

  app.get("/oauth/authorize", (c) => {
    const request = authorizeRequest(c.req.query());
    c.header("Cache-Control", "no-store");
    if ("problem" in request) return c.html(errorPage(request.problem!), 400);
    const account = newSandboxAccount();
    return c.html(authorizePage(c.req.query(), account));
  });

  app.post("/oauth/authorize", async (c) => {
    const f = await fields(c);
    const request = authorizeRequest(f);
    if ("problem" in request) return c.html(errorPage(request.problem!), 400);
    const back = new URL(request.redirect!);
    if (f.decision !== "allow") {
      back.searchParams.set("error", "access_denied");
      back.searchParams.set("error_description", "The user denied the request");
    } else {
      const chosen = (f.account ?? "").trim();
      const account = chosen ? (sandboxAccountOfId(chosen) ?? sandboxAccount(chosen)) : newSandboxAccount();
      if (!account)
        return c.html(errorPage("That is not a sandbox account (acc_ or rzp_test_ and 14 letters or digits)."), 400);
      const code = b64(randomBytes(24));
      codes.set(code, { redirectUri: back.toString(), keyId: account.keyId, expiresAt: Date.now() + CODE_TTL_MS });
      back.searchParams.set("code", code);
    }
    back.searchParams.set("state", request.state!);
    return c.redirect(back.toString(), 302);
  });

  app.post("/oauth/token", async (c) => {
    const f = await fields(c);
    if (!clientOk(f)) return oauthError(c, 401, "invalid_client", "Client authentication failed");
    if (f.grant_type === "authorization_code") {
      const found = codes.get(f.code ?? "");
      codes.delete(f.code ?? "");
      if (!found || found.expiresAt <= Date.now())
        return oauthError(c, 400, "invalid_grant", "The authorization code is invalid, expired or already used");
      if (found.redirectUri !== new URL(f.redirect_uri ?? "http://invalid").toString())
        return oauthError(c, 400, "invalid_grant", "The redirect URI does not match the one authorised");
      return c.json(tokens(sandboxAccount(found.keyId)!));
    }
    if (f.grant_type === "refresh_token") {
      const claims = read(f.refresh_token ?? "", "rt");
      if (!claims) return oauthError(c, 400, "invalid_grant", "The refresh token is invalid, expired or revoked");
      return c.json(tokens(sandboxAccount(claims.keyId)!, claims.grant));
    }
    return oauthError(c, 400, "unsupported_grant_type", "The grant type is not supported");
  });

  /**
   * Razorpay's revoke, called by the partner: the authorisation the token came from ends (its
   * access and refresh tokens, and those refreshed from them); another authorisation of the same
   * account stays good. Revoking a token already revoked answers the same.
   */
  app.post("/oauth/revoke", async (c) => {
    const f = await fields(c);
    if (!clientOk(f)) return oauthError(c, 401, "invalid_client", "Client authentication failed");
    const claims = signed(f.token ?? "", "rt") ?? signed(f.token ?? "", "at");
    if (!claims) return oauthError(c, 400, "invalid_request", "The token is invalid");
    // A token made before grants were named stands for the account's whole access, as it used to.
    if (claims.grant) revokedGrants.set(claims.grant, true);
    else revokedUpTo.set(claims.keyId, seq);
    return c.json({ message: "Token Revoked" });
  });

  /**
   * The sandbox's own stand-in for the account's Dashboard (Applications → Revoke): the owner
   * revokes the partner application's access. Every token of the account issued so far stops
   * working, and the partner webhook's `account.app.authorization_revoked` is delivered to the
   * platform, signed with the partner webhook's secret, as Razorpay sends it. No client secret is
   * asked: it is the account holder's action, not the partner's.
   */
  app.post("/oauth/dashboard-revoke", async (c) => {
    const f = await fields(c);
    if (!partner) return oauthError(c, 400, "invalid_request", "The sandbox has no partner application");
    const account = sandboxAccountOfId(f.razorpay_account_id ?? "");
    if (!account) return oauthError(c, 400, "invalid_request", "Unknown account");
    revokedUpTo.set(account.keyId, seq);
    accessRevoked(account);
    return c.json({ message: "Access revoked", razorpay_account_id: sandboxAccountId(account) });
  });

  /** The sandbox's own: every access token of the account issued so far runs out now (refresh tokens stay good). */
  app.post("/oauth/expire", async (c) => {
    const f = await fields(c);
    if (!clientOk(f)) return oauthError(c, 401, "invalid_client", "Client authentication failed");
    const account = sandboxAccountOfId(f.razorpay_account_id ?? "");
    if (!account) return oauthError(c, 400, "invalid_request", "Unknown account");
    expiredUpTo.set(account.keyId, seq);
    return c.json({ message: "Access tokens expired" });
  });

  return {
    accountOfAccessToken(token) {
      const claims = read(token, "at");
      return claims ? sandboxAccount(claims.keyId) : undefined;
    },
  };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const STYLE = `body{font-family:system-ui,sans-serif;background:#f1f5f9;color:#0f172a;margin:0;padding:32px 16px}main{max-width:520px;margin:auto;background:#fff;border-radius:16px;padding:24px;box-shadow:0 10px 30px -15px rgba(0,0,0,.3)}h1{font-size:20px;margin:8px 0}.badge{display:inline-block;padding:2px 10px;border-radius:999px;background:#fef3c7;color:#92400e;font-size:13px;font-weight:600;border:1px solid #fcd34d}p{color:#475569;font-size:14px;line-height:1.5}label{display:block;font-size:13px;font-weight:600;margin-top:12px}input[type=text]{width:100%;box-sizing:border-box;font:14px ui-monospace,monospace;padding:8px;border:1px solid #cbd5e1;border-radius:8px}.actions{display:flex;gap:8px;margin-top:20px}button{font:inherit;font-weight:600;padding:10px 18px;border-radius:8px;border:1px solid #cbd5e1;background:#fff;cursor:pointer}button.allow{background:#2563eb;color:#fff;border-color:#2563eb}`;

function authorizePage(q: Record<string, string>, account: SandboxAccount): string {
  const hidden = ["client_id", "response_type", "redirect_uri", "scope", "state"]
    .map((name) => `<input type="hidden" name="${name}" value="${escapeHtml(q[name] ?? "")}">`)
    .join("");
  const id = sandboxAccountId(account);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Allow access | Payment sandbox</title><style>${STYLE}</style></head>
<body><main><span class="badge">Test mode \u2014 no real money</span><h1>Allow Pathshala to use your Razorpay account</h1>
<p>The offline payment sandbox stands in for Razorpay's sign-in. Pathshala asks for read and write access (${escapeHtml(q.scope || "read_write")}) to take payments on this sandbox account:</p>
<form method="post">${hidden}
<label for="account">Sandbox account to connect</label><input type="text" id="account" name="account" value="${escapeHtml(id)}" spellcheck="false">
<p>A new test account is offered each time; type another account's id (acc_ and 14 letters or digits) to connect that one.</p>
<div class="actions"><button class="allow" type="submit" name="decision" value="allow">Allow</button><button type="submit" name="decision" value="deny">Deny</button></div>
</form></main></body></html>`;
}

function errorPage(problem: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cannot authorise | Payment sandbox</title><style>${STYLE}</style></head>
<body><main><span class="badge">Test mode \u2014 no real money</span><h1>This authorisation request cannot be completed</h1><p>${escapeHtml(problem)}</p></main></body></html>`;
}
