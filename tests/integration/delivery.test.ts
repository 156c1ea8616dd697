import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { appMeta } from "../../server/db/schema/index.ts";
import { DeliveryService, DELIVERY_SECRET_META } from "../../server/services/delivery.ts";
import { createOrPromoteAdmin } from "../../server/services/admins.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson, registerUser, uniqueEmail } from "../helpers/http.ts";
import { FIXTURES, uploadContent } from "../helpers/content.ts";

let t: TestApp;
let owner: Awaited<ReturnType<typeof registerUser>>;
let contentId: string;
let fileUrl: string;
const SIZE = 10_000;
// Varied bytes after the PDF's end, so that a range in the wrong place shows.
const bytes = FIXTURES.pdf(SIZE, (i) => 32 + (i % 95));

beforeAll(async () => {
  t = await createTestApp();
  owner = await registerUser(t, "creator");
  const res = await uploadContent(
    t,
    owner.access_token,
    { title: "Protected notes", type: "pdf", price: "250" },
    { file: bytes, fileName: "Notes – Physics.pdf" },
  );
  const { content } = await res.json();
  contentId = content._id;
  fileUrl = content.fileUrl;
});
afterAll(() => t.close());

const ownerReader = () => ({ id: owner.user._id, role: "creator" as const });
const get = (url: string, headers: Record<string, string> = {}, method = "GET") => t.request(url, { method, headers });

describe("signed file links", () => {
  it("serve the whole file to its owner, privately, with ranges advertised", async () => {
    const res = await get(fileUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-length")).toBe(String(SIZE));
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(res.headers.get("cache-control")).toMatch(/^private, max-age=\d+, no-transform$/);
    expect(res.headers.get("content-disposition")).toBe(
      `inline; filename="Notes _ Physics.pdf"; filename*=UTF-8''Notes%20%E2%80%93%20Physics.pdf`,
    );
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  it("answer byte ranges with 206 and impossible ones with 416", async () => {
    const first = await get(fileUrl, { range: "bytes=0-99" });
    expect(first.status).toBe(206);
    expect(first.headers.get("content-range")).toBe(`bytes 0-99/${SIZE}`);
    expect(first.headers.get("content-length")).toBe("100");
    expect(new Uint8Array(await first.arrayBuffer())).toEqual(bytes.slice(0, 100));

    const middle = await get(fileUrl, { range: "bytes=5000-5009" });
    expect(new Uint8Array(await middle.arrayBuffer())).toEqual(bytes.slice(5000, 5010));

    const suffix = await get(fileUrl, { range: "bytes=-10" });
    expect(suffix.headers.get("content-range")).toBe(`bytes ${SIZE - 10}-${SIZE - 1}/${SIZE}`);
    expect(new Uint8Array(await suffix.arrayBuffer())).toEqual(bytes.slice(SIZE - 10));

    const beyond = await get(fileUrl, { range: `bytes=${SIZE}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${SIZE}`);

    // A range against another version of the file (If-Range) gets the whole current file.
    const stale = await get(fileUrl, { range: "bytes=0-9", "if-range": '"something-else"' });
    expect(stale.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect((await get(fileUrl, { range: "bytes=0-9", "if-range": etag })).status).toBe(206);

    const head = await get(fileUrl, { range: "bytes=0-9" }, "HEAD");
    expect(head.status).toBe(206);
    expect(head.headers.get("content-length")).toBe("10");
  });

  it("refuse a tampered, truncated or expired link", async () => {
    const url = new URL(fileUrl, "http://localhost");
    const tampered = new URL(url);
    tampered.searchParams.set(
      "s",
      url.searchParams.get("s")!.replace(/^./, (c) => (c === "A" ? "B" : "A")),
    );
    const later = new URL(url);
    later.searchParams.set("e", String(Number(url.searchParams.get("e")) + 3600));
    const missing = new URL(url);
    missing.searchParams.delete("s");
    for (const bad of [tampered, later, missing]) {
      const res = await get(bad.pathname + bad.search);
      expect(res.status).toBe(403);
      expect((await res.json()).error).toBe("This link is not valid.");
    }
    const row = (await t.services.content.findAny(contentId))!;
    const old = await t.services.delivery.link(ownerReader(), row, 60, new Date(Date.now() - 10 * 60 * 1000));
    const expired = await get(old!.url);
    expect(expired.status).toBe(403);
    expect((await expired.json()).error).toBe("This link has expired. Please open the file again.");
  });

  it("are personal: someone signed in as another user cannot use them", async () => {
    const other = await registerUser(t, "student");
    const res = await get(fileUrl, bearer(other.access_token));
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe("This link belongs to another account.");
  });

  it("are issued only to those who may open the file (owner, admins); others get 403", async () => {
    const student = await registerUser(t, "student");
    const refused = await t.request(`/api/content/${contentId}/file-url`, { headers: bearer(student.access_token) });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe("You do not have access to this file.");

    const email = uniqueEmail("admin");
    await createOrPromoteAdmin(t.database.db, { email, password: "a-long-unusual-password" });
    const login = await (await postJson(t, "/api/auth/login", { email, password: "a-long-unusual-password" })).json();
    const adminLink = await t.request(`/api/content/${contentId}/file-url?ttl=120`, {
      headers: bearer(login.access_token),
    });
    expect(adminLink.status).toBe(200);
    const { url, expiresAt } = await adminLink.json();
    expect(Date.parse(expiresAt) - Date.now()).toBeLessThanOrEqual(120_000);
    expect((await get(url, bearer(login.access_token))).status).toBe(200);
  });

  it("are signed with a secret kept in the database, so every instance accepts every other's links", async () => {
    const [meta] = await t.database.db.select().from(appMeta).where(eq(appMeta.key, DELIVERY_SECRET_META));
    expect(meta.value.length).toBeGreaterThanOrEqual(43);
    const otherInstance = new DeliveryService(t.database.db, t.services.storage, (id) =>
      t.services.content.findAny(id),
    );
    const row = (await t.services.content.findAny(contentId))!;
    const link = await otherInstance.link(ownerReader(), row);
    expect((await get(link!.url)).status).toBe(200);
  });
});
