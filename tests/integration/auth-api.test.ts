import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { sessions, users } from "../../server/db/schema/index.ts";
import { REFRESH_REUSE_GRACE_MS } from "../../server/auth/sessions.ts";
import { hashToken } from "../../server/auth/tokens.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { register } from "../helpers/learning.ts";
import { bearer, PNG_BYTES, postJson, registerUser, uniqueEmail } from "../helpers/http.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
});
afterAll(() => t.close());

const userCount = async () => (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(users))[0].n;

describe("POST /api/auth/register", () => {
  it("creates each self-service role and answers {user, access_token, refresh_token}", async () => {
    for (const role of ["student", "creator", "business"] as const) {
      const email = uniqueEmail(role);
      const res = await postJson(t, "/api/auth/register", {
        name: " Asha Rao ",
        email: `  ${email.toUpperCase()} `,
        password: "tangerine-kettle-42",
        role,
      });
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "refresh_token", "user"]);
      expect(body.user).toMatchObject({ name: "Asha Rao", email, role, avatarUrl: null });
      expect(body.user._id).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.user.passwordHash).toBeUndefined();
      expect(body.access_token).toMatch(/^[a-z2-7]{32}$/);
      expect(body.refresh_token).not.toBe(body.access_token);
    }
  });

  it("makes creators by default", async () => {
    const res = await postJson(t, "/api/auth/register", {
      name: "No Role",
      email: uniqueEmail(),
      password: "tangerine-kettle-42",
    });
    expect((await res.json()).user.role).toBe("creator");
  });

  it("refuses an admin registration with 403 and creates nothing", async () => {
    const before = await userCount();
    const email = uniqueEmail("admin");
    const res = await postJson(t, "/api/auth/register", {
      name: "Mallory",
      email,
      password: "tangerine-kettle-42",
      role: "admin",
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({
      success: false,
      error: "Admin accounts cannot be created by registration.",
    });
    expect(await userCount()).toBe(before);
  });

  it("answers 409 for a taken email, whatever its case", async () => {
    const { email } = await registerUser(t, "student");
    const res = await postJson(t, "/api/auth/register", {
      name: "Again",
      email: email.toUpperCase(),
      password: "tangerine-kettle-42",
      role: "student",
    });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe("An account with this email already exists");
  });

  it("names what is wrong with bad input and creates nothing", async () => {
    const before = await userCount();
    const cases: [unknown, string][] = [
      [{ email: uniqueEmail(), password: "tangerine-kettle-42" }, "Full name is required"],
      [{ name: "A", email: "not-an-email", password: "tangerine-kettle-42" }, "Please enter a valid email address"],
      [{ name: "A", email: uniqueEmail(), password: "short" }, "Password must be at least 8 characters"],
      [{ name: "A", email: uniqueEmail(), password: "x".repeat(129) }, "Password must be at most 128 characters"],
      [
        { name: "A", email: uniqueEmail(), password: "password123" },
        "This password is too common. Please choose another.",
      ],
      [
        { name: "A", email: uniqueEmail(), password: "tangerine-kettle-42", role: "teacher" },
        "Role must be student, creator or business",
      ],
      [{ name: 42, email: uniqueEmail(), password: "tangerine-kettle-42" }, "Full name is required"],
    ];
    for (const [body, message] of cases) {
      const res = await postJson(t, "/api/auth/register", body);
      expect(res.status, message).toBe(400);
      expect((await res.json()).error).toBe(message);
    }
    const malformed = await postJson(t, "/api/auth/register", "{not json");
    expect(malformed.status).toBe(400);
    expect(await userCount()).toBe(before);
  });
});

describe("POST /api/auth/login", () => {
  it("signs in with the right password", async () => {
    const { email, password } = await registerUser(t, "creator");
    const res = await postJson(t, "/api/auth/login", { email: email.toUpperCase(), password, role: "creator" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.user).toMatchObject({ email, role: "creator" });
    expect(body.access_token).toBeTruthy();
  });

  it("gives the same answer for a wrong password and an unknown email", async () => {
    const { email } = await registerUser(t, "student");
    const wrong = await postJson(t, "/api/auth/login", { email, password: "not-the-password" });
    const unknown = await postJson(t, "/api/auth/login", { email: uniqueEmail("ghost"), password: "not-the-password" });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  it("answers 429 with Retry-After once one account has too many failures", async () => {
    const { email, password } = await registerUser(t, "student");
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 20; i++) {
      const res = await postJson(
        t,
        "/api/auth/login",
        { email, password: `wrong-${i}-password` },
        { headers: { "x-forwarded-for": `10.0.0.${i}` } },
      );
      statuses.push(res.status);
      if (res.status === 429) {
        retryAfter = res.headers.get("retry-after");
        expect((await res.json()).error).toMatch(/^Too many attempts\. Please try again in \d+ (seconds|minutes?)\.$/);
      }
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10).every((s) => s === 429)).toBe(true);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    // Even the right password waits: the account is slowed down.
    expect(
      (await postJson(t, "/api/auth/login", { email, password }, { headers: { "x-forwarded-for": "10.0.1.1" } }))
        .status,
    ).toBe(429);
  });

  it("limits one address trying many accounts", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) {
      const res = await postJson(
        t,
        "/api/auth/login",
        { email: uniqueEmail("spray"), password: "whatever-password" },
        { headers: { "x-forwarded-for": "192.0.2.77" } },
      );
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(60);
    expect(statuses.slice(60)).toEqual([429, 429]);
    // Sixty password checks, one core's worth at a time: seconds alone, much longer beside CI's other suites.
  }, 180_000);
});

describe("profile, tokens and logout", () => {
  it("returns the profile for a bearer token, 401 without one", async () => {
    const { access_token, email } = await registerUser(t, "business");
    const ok = await t.request("/api/auth/profile", { headers: bearer(access_token) });
    expect(ok.status).toBe(200);
    expect((await ok.json()).user).toMatchObject({ email, role: "business" });

    const none = await t.request("/api/auth/profile");
    expect(none.status).toBe(401);
    expect((await none.json()).error).toBe("Please sign in to continue.");
    const junk = await t.request("/api/auth/profile", { headers: bearer("garbage") });
    expect(junk.status).toBe(401);
    expect((await junk.json()).error).toBe("Your session has expired. Please sign in again.");
  });

  it("rotates refresh tokens; replaying a used one revokes the whole family", async () => {
    const first = await registerUser(t, "student");
    const r1 = await postJson(t, "/api/auth/refresh", { refresh_token: first.refresh_token });
    expect(r1.status).toBe(200);
    const second = await r1.json();
    expect(Object.keys(second).sort()).toEqual(["access_token", "expires_in", "refresh_token"]);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await t.request("/api/auth/profile", { headers: bearer(second.access_token) })).status).toBe(200);

    // Seconds later (another tab refreshing the same login) the used token gets the same pair…
    const again = await postJson(t, "/api/auth/refresh", { refresh_token: first.refresh_token });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(second);

    // …but once the grace is over, a replay is a theft.
    await t.database.db
      .update(sessions)
      .set({ rotatedAt: new Date(Date.now() - REFRESH_REUSE_GRACE_MS) })
      .where(eq(sessions.id, hashToken(first.refresh_token)));
    const replay = await postJson(t, "/api/auth/refresh", { refresh_token: first.refresh_token });
    expect(replay.status).toBe(401);
    expect((await replay.json()).error).toBe("Refresh failed");
    // The thief's replay cost the legitimate holder the newer tokens too.
    expect((await postJson(t, "/api/auth/refresh", { refresh_token: second.refresh_token })).status).toBe(401);
    expect((await t.request("/api/auth/profile", { headers: bearer(second.access_token) })).status).toBe(401);
  });

  it("keeps both tabs signed in when they refresh one login at the same moment", async () => {
    const { refresh_token } = await register(t, "student");
    const tabs = await Promise.all([1, 2].map(() => postJson(t, "/api/auth/refresh", { refresh_token })));
    expect(tabs.map((res) => res.status)).toEqual([200, 200]);
    const [one, two] = await Promise.all(tabs.map((res) => res.json()));
    expect(two).toEqual(one);
    expect((await t.request("/api/auth/profile", { headers: bearer(one.access_token) })).status).toBe(200);
    expect((await postJson(t, "/api/auth/refresh", { refresh_token: one.refresh_token })).status).toBe(200);
  });

  it("refuses a missing, unknown or expired refresh token", async () => {
    const missing = await postJson(t, "/api/auth/refresh", {});
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toBe("No refresh_token");
    expect((await postJson(t, "/api/auth/refresh", { refresh_token: "nope" })).status).toBe(401);

    const { refresh_token, user } = await registerUser(t, "student");
    await t.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user._id));
    expect((await postJson(t, "/api/auth/refresh", { refresh_token })).status).toBe(401);
  });

  it("expires access tokens", async () => {
    const { access_token, user } = await registerUser(t, "student");
    await t.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(sql`${sessions.userId} = ${user._id} and ${sessions.kind} = 'access'`);
    expect((await t.request("/api/auth/profile", { headers: bearer(access_token) })).status).toBe(401);
  });

  it("binds tokens to the host that issued them", async () => {
    const { access_token, refresh_token } = await registerUser(t, "student");
    await t.database.db.execute(
      sql`insert into centers (slug, institute_name, custom_domain) values ('hostbind', 'Host Bind', 'hostbind.test')`,
    );
    t.services.tenants.changed();
    expect(
      (await t.request("/api/auth/profile", { host: "hostbind.test", headers: bearer(access_token) })).status,
    ).toBe(401);
    expect((await postJson(t, "/api/auth/refresh", { refresh_token }, { host: "hostbind.test" })).status).toBe(401);
  });

  it("logout ends the API login", async () => {
    const { access_token, refresh_token } = await registerUser(t, "creator");
    const res = await postJson(t, "/api/auth/logout", {}, { headers: bearer(access_token) });
    expect(res.status).toBe(200);
    expect((await t.request("/api/auth/profile", { headers: bearer(access_token) })).status).toBe(401);
    expect((await postJson(t, "/api/auth/refresh", { refresh_token })).status).toBe(401);
  });
});

describe("PUT /api/auth/avatar", () => {
  const upload = (token: string, file: Blob, field = "avatar") => {
    const form = new FormData();
    form.set(field, file, "me.png");
    return t.request("/api/auth/avatar", { method: "PUT", headers: bearer(token), body: form });
  };

  it("stores a PNG and serves it back from its URL", async () => {
    const { access_token } = await registerUser(t, "student");
    const res = await upload(access_token, new Blob([PNG_BYTES], { type: "image/png" }));
    expect(res.status).toBe(200);
    const { user } = await res.json();
    expect(user.avatarUrl).toMatch(/^\/media\/avatars\/[0-9a-f-]{36}\.png$/);
    const image = await t.request(user.avatarUrl);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await image.arrayBuffer())).toEqual(PNG_BYTES);

    // Replacing it removes the old file.
    const again = await (await upload(access_token, new Blob([PNG_BYTES]))).json();
    expect(again.user.avatarUrl).not.toBe(user.avatarUrl);
    expect((await t.request(user.avatarUrl)).status).toBe(404);
  });

  it("checks the bytes, not the name or declared type", async () => {
    const { access_token } = await registerUser(t, "student");
    const res = await upload(access_token, new Blob(["<svg onload=alert(1)>"], { type: "image/png" }));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("Please upload a PNG, JPEG or WebP image.");
  });

  it("refuses files over 2 MB with 413, a missing file with 400, and strangers with 401", async () => {
    const { access_token } = await registerUser(t, "student");
    const big = new Uint8Array(2 * 1024 * 1024 + 10);
    big.set(PNG_BYTES);
    const tooBig = await upload(access_token, new Blob([big]));
    expect(tooBig.status).toBe(413);
    expect((await tooBig.json()).error).toBe("The avatar must be 2 MB or smaller.");
    const missing = await upload(access_token, new Blob([PNG_BYTES]), "picture");
    expect(missing.status).toBe(400);
    const form = new FormData();
    form.set("avatar", new Blob([PNG_BYTES]), "a.png");
    expect((await t.request("/api/auth/avatar", { method: "PUT", body: form })).status).toBe(401);
  });
});

describe("CSRF on cookie sessions", () => {
  // One person per role, a new browser session each time: registrations from one address are limited.
  const people = new Map<string, Promise<{ user: { _id: string } }>>();
  async function cookieFor(role: "student" | "creator" = "student") {
    if (!people.has(role)) people.set(role, registerUser(t, role));
    const { user } = await people.get(role)!;
    const { token } = await t.services.sessions.createWebSession(user._id, "localhost", false);
    return `pathshala_session=${token}`;
  }

  it("refuses a cross-site write and accepts a same-origin one", async () => {
    const cookie = await cookieFor();
    const evil = await postJson(t, "/api/auth/logout", {}, { headers: { cookie, origin: "https://evil.example" } });
    expect(evil.status).toBe(403);
    expect((await evil.json()).error).toBe("This request came from another site and was refused.");
    const crossSite = await postJson(
      t,
      "/api/auth/logout",
      {},
      { headers: { cookie, "sec-fetch-site": "cross-site" } },
    );
    expect(crossSite.status).toBe(403);
    const sameSiteOtherHost = await postJson(
      t,
      "/api/auth/logout",
      {},
      { headers: { cookie, "sec-fetch-site": "same-site" } },
    );
    expect(sameSiteOtherHost.status).toBe(403);
    const noHeaders = await postJson(t, "/api/auth/logout", {}, { headers: { cookie } });
    expect(noHeaders.status).toBe(403);

    const profile = await t.request("/api/auth/profile", { headers: { cookie } });
    expect(profile.status).toBe(200);
    const ok = await postJson(
      t,
      "/api/auth/logout",
      {},
      { host: "localhost:3000", headers: { cookie, origin: "http://localhost:3000", "sec-fetch-site": "same-origin" } },
    );
    expect(ok.status).toBe(200);
    expect((await t.request("/api/auth/profile", { headers: { cookie } })).status).toBe(401);
  });

  it("without Sec-Fetch-Site, compares the Origin's scheme, host and port with the request's", async () => {
    const cookie = await cookieFor();
    const host = "localhost:3000";
    for (const origin of [
      "https://localhost:3000",
      "http://localhost:4000",
      "http://localhost",
      "http://127.0.0.1:3000",
      "http://localhost:3000.evil.example",
      "not a url",
    ]) {
      const refused = await postJson(t, "/api/auth/logout", {}, { host, headers: { cookie, origin } });
      expect(refused.status, origin).toBe(403);
      expect((await refused.json()).error).toBe("This request came from another site and was refused.");
    }
    // Even with Sec-Fetch-Site claiming same-origin, an Origin naming another port is refused.
    expect(
      (
        await postJson(
          t,
          "/api/auth/logout",
          {},
          { host, headers: { cookie, origin: "http://localhost:4000", "sec-fetch-site": "same-origin" } },
        )
      ).status,
    ).toBe(403);
    expect((await t.request("/api/auth/profile", { headers: { cookie } })).status).toBe(200);
    const same = await postJson(
      t,
      "/api/auth/logout",
      {},
      { host, headers: { cookie, origin: "http://LOCALHOST:3000" } },
    );
    expect(same.status).toBe(200);
  });

  it("exempts bearer-token calls", async () => {
    const { access_token } = await registerUser(t, "creator");
    const res = await postJson(
      t,
      "/api/auth/logout",
      {},
      { headers: { ...bearer(access_token), origin: "https://elsewhere.example" } },
    );
    expect(res.status).toBe(200);
  });
});
