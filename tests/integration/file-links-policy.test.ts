import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { memberships, users } from "../../server/db/schema/index.ts";
import { NO_FILE_ACCESS } from "../../server/services/delivery.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { enrol, register } from "../helpers/learning.ts";
import { FIXTURES } from "../helpers/content.ts";
import { CHOSEN_MEMBERSHIP_COOKIE, type MemberRole } from "#common/memberships.ts";

/**
 * A content's file link goes to whoever the policy lets write the content's institute
 * (content.write there, decision 0039), besides its creator, admins and enrolled students: a
 * creator colleague at the institute's desk opens another creator's PDF, its owner too; a creator
 * of another institute does not, nor one whose role there has ended; an enrolled student still
 * gets their stamped copy.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let author: Account;
let colleague: Account;
let outsider: Account;
let a: Awaited<ReturnType<typeof createCenter>>;
let b: Awaited<ReturnType<typeof createCenter>>;
let pdfId: string;
const PDF = FIXTURES.pdf(3000);

const chose = (centerId: string, role: MemberRole) => `${CHOSEN_MEMBERSHIP_COOKIE}=${centerId}:${role}`;
const headers = (who: Account, cookie?: string) => ({ ...bearer(who.access_token), ...(cookie ? { cookie } : {}) });
const get = (path: string, who: Account, cookie?: string, host?: string) =>
  t.request(path, { headers: headers(who, cookie), host });

async function member(centerId: string, who: Account, role: MemberRole) {
  const [row] = await t.database.db.select({ email: users.email }).from(users).where(eq(users.id, who.user._id));
  await t.database.db
    .insert(memberships)
    .values({ centerId, userId: who.user._id, email: row.email, role, status: "active", acceptedAt: new Date() });
}

/** The bytes behind a signed link, fetched as `who`. */
async function opened(url: string, who: Account, host?: string) {
  const res = await get(url, who, undefined, host);
  return { status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
}

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  owner = await register(t, "business", { name: "Owner A" });
  author = await register(t, "creator", { name: "Author at A" });
  colleague = await register(t, "creator", { name: "Colleague at A" });
  outsider = await register(t, "creator", { name: "Creator at B" });
  a = await createCenter(t, owner.user._id, { instituteName: "Alpha Academy", slug: "fl-alpha" });
  b = await createCenter(t, owner.user._id, { instituteName: "Beta Academy", slug: "fl-beta" });
  await member(a.id, author, "creator");
  await member(a.id, colleague, "creator");
  await member(b.id, outsider, "creator");

  const form = new FormData();
  for (const [k, v] of Object.entries({ title: "Alpha notes PDF", type: "pdf", price: "0" })) form.set(k, v);
  form.set("file", new Blob([PDF]), "notes.pdf");
  const made = await t.request("/api/content", {
    method: "POST",
    headers: headers(author, chose(a.id, "creator")),
    body: form,
  });
  expect(made.status, await made.clone().text()).toBe(201);
  const { content } = await made.json();
  expect(content.businessId).toBe(a.id);
  pdfId = content._id;
});
afterAll(() => t.close());

describe("a content's file link", () => {
  it("is given to a creator colleague at the institute's desk, and opens the original file", async () => {
    const seen = await get(`/api/content/${pdfId}`, colleague, chose(a.id, "creator"));
    expect(seen.status, await seen.clone().text()).toBe(200);
    const { fileUrl } = (await seen.json()).content as { fileUrl: string | null };
    expect(fileUrl).toMatch(new RegExp(`^/api/files/${pdfId}/`));
    const file = await opened(fileUrl!, colleague);
    expect(file.status).toBe(200);
    expect(file.bytes).toEqual(PDF);

    const fresh = await get(`/api/content/${pdfId}/file-url`, colleague);
    expect(fresh.status, await fresh.clone().text()).toBe(200);
  });

  it("is given to the institute's owner at its desk", async () => {
    const seen = await get(`/api/content/${pdfId}`, owner, chose(a.id, "owner"));
    expect(seen.status, await seen.clone().text()).toBe(200);
    expect((await seen.json()).content.fileUrl).toMatch(new RegExp(`^/api/files/${pdfId}/`));
  });

  it("is refused to a creator of another institute", async () => {
    const fresh = await get(`/api/content/${pdfId}/file-url`, outsider);
    expect(fresh.status).toBe(403);
    expect((await fresh.json()).error).toBe(NO_FILE_ACCESS);
    // The colleague's link opened by them is refused too: links are personal.
    const mine = (await (await get(`/api/content/${pdfId}/file-url`, colleague)).json()) as { url: string };
    expect((await opened(mine.url, outsider)).status).toBe(403);
  });

  it("stops once the colleague's role there ends, the link already given included", async () => {
    const other = await register(t, "creator", { name: "Leaving Colleague" });
    await member(a.id, other, "creator");
    const { url } = (await (await get(`/api/content/${pdfId}/file-url`, other)).json()) as { url: string };
    expect((await opened(url, other)).status).toBe(200);
    await t.database.db
      .update(memberships)
      .set({ status: "removed", removedAt: new Date() })
      .where(and(eq(memberships.centerId, a.id), eq(memberships.userId, other.user._id)));
    expect((await opened(url, other)).status).toBe(403);
    expect((await get(`/api/content/${pdfId}/file-url`, other)).status).toBe(403);
  });

  it("is still given to an enrolled student, who opens their stamped copy", async () => {
    const host = a.customDomain!;
    const student = await register(t, "student", { name: "Student at A", host });
    expect((await get(`/api/content/${pdfId}/file-url`, student, undefined, host)).status).toBe(403);
    const enrolled = await enrol(t, student.access_token, pdfId, host);
    expect(enrolled.status, await enrolled.clone().text()).toBe(201);
    const fresh = await get(`/api/content/${pdfId}/file-url`, student, undefined, host);
    expect(fresh.status, await fresh.clone().text()).toBe(200);
    const file = await opened(((await fresh.json()) as { url: string }).url, student, host);
    expect(file.status).toBe(200);
    expect(new TextDecoder().decode(file.bytes.subarray(0, 5))).toBe("%PDF-");
    // Their own copy, stamped with their name: not the original's bytes.
    expect(file.bytes).not.toEqual(PDF);
  });
});
