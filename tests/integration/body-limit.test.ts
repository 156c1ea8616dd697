import { request } from "node:http";
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

  it("the question bank page's form takes a file as large as the API does (a ZIP of 32 MB); other pages stop at 1 MB", async () => {
    // node:http rather than fetch: the server answers a body that is too large at once, and
    // fetch reports the connection closing under its upload rather than the answer.
    const post = async (path: string, size: number) => {
      const form = new FormData();
      form.set("intent", "import");
      form.set("file", new File([new Uint8Array(size)], "bank.csv"));
      const encoded = new Response(form);
      const body = Buffer.from(await encoded.arrayBuffer());
      return new Promise<{ status: number; error?: string }>((resolve, reject) => {
        const req = request(`${t.baseUrl}${path}`, {
          method: "POST",
          headers: { "content-type": encoded.headers.get("content-type")!, "content-length": body.length },
        });
        req.on("error", () => {}); // The server may close while the rest is being written.
        req.on("response", (res) => {
          let text = "";
          res.on("data", (chunk) => (text += chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode!, error: text.startsWith("{") ? JSON.parse(text).error : undefined }),
          );
          res.on("error", reject);
        });
        req.end(body);
      });
    };
    for (const page of ["/creator/tests/questions", "/business/tests/questions", "/business/tests/questions.data"]) {
      expect((await post(page, 1.5 * 1024 * 1024)).status, page).not.toBe(413);
      const refused = await post(page, 33 * 1024 * 1024);
      expect(refused.status, page).toBe(413);
      expect(refused.error).toBe("The request body is too large.");
    }
    expect((await post("/creator/tests/new", 1.5 * 1024 * 1024)).status).toBe(413);
    // About 100 MB sent in all: more than the default timeout on a machine busy with other suites.
  }, 90_000);
});
