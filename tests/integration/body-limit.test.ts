import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOrPromoteAdmin } from "../../server/services/admins.ts";
import { createListeningTestApp, type ListeningTestApp } from "../helpers/payments.ts";

/** Over real HTTP (the node server's own request objects), where Hono's bodyLimit used to throw. */
let t: ListeningTestApp;
let token: string;
beforeAll(async () => {
  t = await createListeningTestApp();
  // Sessions belong to the host they were issued on: sign in over HTTP, as the requests below are made.
  await createOrPromoteAdmin(t.database.db, { email: "limits@example.com", password: "admin-password-long-enough" });
  const login = await fetch(`${t.baseUrl}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "limits@example.com", password: "admin-password-long-enough" }),
  });
  token = (await login.json()).access_token;
});
afterAll(() => t.close());

const plan = (name: string) => ({
  name,
  pricing: { monthly: { price: 1 }, quarterly: { price: 2 }, yearly: { price: 3 } },
});
const chunked = (text: string) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      const bytes = new TextEncoder().encode(text);
      for (let i = 0; i < bytes.length; i += 64 * 1024) controller.enqueue(bytes.subarray(i, i + 64 * 1024));
      controller.close();
    },
  });

describe("request bodies over HTTP", () => {
  it("a DELETE without a body is served (not a 500)", async () => {
    const created = await fetch(`${t.baseUrl}/api/pricing`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(plan("Body Limit A")),
    });
    const { plan: row } = await created.json();
    const res = await fetch(`${t.baseUrl}/api/pricing/${row._id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    expect((await res.json()).deleted).toBe(true);
  });

  it("a chunked body within the limit is read; one over it is refused with 413", async () => {
    const small = await fetch(`${t.baseUrl}/api/pricing`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: chunked(JSON.stringify(plan("Body Limit B"))),
      duplex: "half",
    } as RequestInit);
    expect(small.status).toBe(201);
    const big = await fetch(`${t.baseUrl}/api/pricing`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: chunked(JSON.stringify({ ...plan("Body Limit C"), description: "x".repeat(2 * 1024 * 1024) })),
      duplex: "half",
    } as RequestInit);
    expect(big.status).toBe(413);
    expect((await big.json()).error).toBe("The request body is too large.");
  });
});
