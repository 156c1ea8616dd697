import { readdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { contents, enrollments } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson, registerUser } from "../helpers/http.ts";
import { FIXTURES, insertPaidOrder, makeCenter, uploadContent } from "../helpers/content.ts";
import { joinTeam } from "../helpers/team.ts";
import { NOT_ON_TEAM } from "#common/validation/team.ts";

let t: TestApp;
// Small limits so that "too large" is cheap to reach.
const LIMITS = {
  MAX_PDF_BYTES: String(64 * 1024),
  MAX_VIDEO_BYTES: String(256 * 1024),
  MAX_IMAGE_BYTES: String(16 * 1024),
};

beforeAll(async () => {
  t = await createTestApp(LIMITS);
});
afterAll(() => t.close());

/** Every object in the disk store (temporary parts included), relative to its root. */
function storedFiles(): string[] {
  try {
    return readdirSync(join(t.env.DATA_DIR, "files"), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => join(e.parentPath, e.name).slice(join(t.env.DATA_DIR, "files").length + 1));
  } catch {
    return [];
  }
}

const putJson = (path: string, token: string, body: unknown) =>
  postJson(t, path, body, { method: "PUT", headers: bearer(token) });

async function creatorWith(n = 0) {
  const creator = await registerUser(t, "creator");
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await uploadContent(
      t,
      creator.access_token,
      { title: `Lesson ${i}`, type: "pdf", price: "10" },
      { file: FIXTURES.pdf() },
    );
    ids.push((await res.json()).content._id);
  }
  return { ...creator, ids };
}

describe("POST /api/content", () => {
  it("uploads a PDF: stored under a server-made key, typed by its bytes, price in rupees", async () => {
    const { access_token } = await registerUser(t, "creator");
    const before = storedFiles().length;
    const res = await uploadContent(
      t,
      access_token,
      { title: "  Rotational Motion Notes ", description: "Formula sheet", type: "pdf", price: "499.50" },
      { file: FIXTURES.pdf(3000), fileName: "../../etc/passwd.pdf", thumbnail: FIXTURES.png() },
    );
    expect(res.status).toBe(201);
    const { content } = await res.json();
    expect(content).toMatchObject({
      title: "Rotational Motion Notes",
      description: "Formula sheet",
      type: "pdf",
      price: 499.5,
      isActive: true,
      businessId: null,
      liveLink: null,
      file: { name: "passwd.pdf", size: 3000, mime: "application/pdf" },
    });
    expect(content._id).toMatch(/^[0-9a-f-]{36}$/);
    expect(content.thumbnailUrl).toMatch(/^\/media\/thumbnails\/[0-9a-f-]{36}\.png$/);
    expect(content.fileUrl).toMatch(new RegExp(`^/api/files/${content._id}/passwd\\.pdf\\?u=`));
    const [row] = await t.database.db.select().from(contents).where(eq(contents.id, content._id));
    expect(row.price).toBe(49950);
    expect(row.fileKey).toMatch(/^content\/[0-9a-f-]{36}\.pdf$/);
    expect(storedFiles().length).toBe(before + 2);
    // The thumbnail is public; the file is reachable only through its signed link.
    expect((await t.request(content.thumbnailUrl)).status).toBe(200);
    expect((await t.request(`/media/${row.fileKey}`)).status).toBe(404);
    const file = await t.request(content.fileUrl, { headers: bearer(access_token) });
    expect(file.status).toBe(200);
    expect((await file.arrayBuffer()).byteLength).toBe(3000);
  });

  it("uploads MP4 and WebM videos", async () => {
    const { access_token } = await registerUser(t, "creator");
    for (const [kind, bytes, mime] of [
      ["mp4", FIXTURES.mp4(), "video/mp4"],
      ["webm", FIXTURES.webm(), "video/webm"],
    ] as const) {
      const res = await uploadContent(
        t,
        access_token,
        { title: `Video ${kind}`, type: "video", price: "0" },
        { file: bytes },
      );
      expect(res.status, kind).toBe(201);
      expect((await res.json()).content).toMatchObject({ type: "video", price: 0, file: { mime } });
    }
  });

  it("creates a live class with its https link and keeps no file or thumbnail for it", async () => {
    const { access_token } = await registerUser(t, "creator");
    const before = storedFiles().length;
    const res = await uploadContent(
      t,
      access_token,
      { title: "Doubt session", type: "live", price: "199", liveLink: "https://meet.jit.si/pathshala-doubts" },
      { file: FIXTURES.pdf(), thumbnail: FIXTURES.png() },
    );
    expect(res.status).toBe(201);
    const { content } = await res.json();
    expect(content).toMatchObject({
      type: "live",
      liveLink: "https://meet.jit.si/pathshala-doubts",
      file: null,
      fileUrl: null,
      thumbnail: null,
      resourceUrl: "https://meet.jit.si/pathshala-doubts",
    });
    expect(storedFiles().length).toBe(before);
  });

  it("refuses a live class without a valid https link", async () => {
    const { access_token } = await registerUser(t, "creator");
    const cases: [string | undefined, string][] = [
      [undefined, "Please enter the live link for a live class"],
      ["", "Please enter the live link for a live class"],
      ["http://meet.example.com/x", "The live link must be a valid https:// URL"],
      ["javascript:alert(1)", "The live link must be a valid https:// URL"],
      ["https://", "The live link must be a valid https:// URL"],
    ];
    for (const [liveLink, message] of cases) {
      const res = await uploadContent(t, access_token, { title: "Live", type: "live", liveLink });
      expect(res.status, String(liveLink)).toBe(400);
      expect((await res.json()).error).toBe(message);
    }
  });

  it("needs a file for PDF and video content", async () => {
    const { access_token } = await registerUser(t, "creator");
    for (const type of ["pdf", "video"]) {
      const res = await uploadContent(t, access_token, { title: "No file", type, price: "10" });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe("Please select a file for PDF/Video content");
    }
    // An empty file input is the same as none.
    const empty = await uploadContent(t, access_token, { title: "Empty", type: "pdf" }, { file: new Uint8Array() });
    expect((await empty.json()).error).toBe("Please select a file for PDF/Video content");
  });

  it("judges files by their bytes, not their names, and keeps nothing it refuses", async () => {
    const { access_token } = await registerUser(t, "creator");
    const before = storedFiles();
    const cases: [string, Uint8Array<ArrayBuffer>, string][] = [
      ["pdf", FIXTURES.html(), "The file must be a PDF."],
      ["pdf", FIXTURES.mp4(), "The file must be a PDF."],
      ["video", FIXTURES.pdf(), "The file must be an MP4, WebM or QuickTime video."],
      ["video", FIXTURES.png(), "The file must be an MP4, WebM or QuickTime video."],
    ];
    for (const [type, bytes, message] of cases) {
      const res = await uploadContent(
        t,
        access_token,
        { title: "Wrong", type },
        { file: bytes, fileName: type === "pdf" ? "notes.pdf" : "clip.mp4" },
      );
      expect(res.status, message).toBe(400);
      expect((await res.json()).error).toBe(message);
    }
    const badThumb = await uploadContent(
      t,
      access_token,
      { title: "Thumb", type: "pdf" },
      { file: FIXTURES.pdf(), thumbnail: FIXTURES.html() },
    );
    expect(badThumb.status).toBe(400);
    expect((await badThumb.json()).error).toBe("Please upload a PNG, JPEG or WebP image.");
    // A PDF that students' copies could not be made of (it is read back and stamped once) is refused too.
    for (const [name, bytes] of [
      ["damaged", FIXTURES.brokenPdf(3000)],
      ["password-protected", FIXTURES.encryptedPdf()],
    ] as const) {
      const res = await uploadContent(
        t,
        access_token,
        { title: `Unstampable ${name}`, type: "pdf", price: "99" },
        { file: bytes, fileName: "notes.pdf", thumbnail: FIXTURES.png() },
      );
      expect(res.status, name).toBe(400);
      expect((await res.json()).error).toBe(
        "This PDF cannot be prepared for students: it may be password-protected or damaged. Please upload another PDF.",
      );
    }
    expect(storedFiles()).toEqual(before);
    expect((await (await t.request("/api/content/my", { headers: bearer(access_token) })).json()).contents).toEqual([]);
    // One that can be stamped goes through.
    const ok = await uploadContent(
      t,
      access_token,
      { title: "Stampable", type: "pdf" },
      { file: FIXTURES.pdf(3000), fileName: "notes.pdf" },
    );
    expect(ok.status).toBe(201);
    expect(storedFiles()).toHaveLength(before.length + 1);
  });

  it("checks the pairing again when the type field comes after the file", async () => {
    const { access_token } = await registerUser(t, "creator");
    const form = new FormData();
    form.set("title", "Late type");
    form.set("file", new Blob([FIXTURES.mp4()]), "clip.mp4");
    form.set("type", "pdf");
    const before = storedFiles();
    const res = await t.request("/api/content", { method: "POST", headers: bearer(access_token), body: form });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("The file must be a PDF.");
    expect(storedFiles()).toEqual(before);
  });

  it("answers 413 for a file over its limit and removes the bytes already stored", async () => {
    const { access_token } = await registerUser(t, "creator");
    const before = storedFiles();
    const cases: [string, Uint8Array<ArrayBuffer>, string][] = [
      ["pdf", FIXTURES.pdf(64 * 1024 + 1), "The PDF must be 64 KB or smaller."],
      ["video", FIXTURES.mp4(256 * 1024 + 1), "The video must be 256 KB or smaller."],
    ];
    for (const [type, bytes, message] of cases) {
      const res = await uploadContent(
        t,
        access_token,
        { title: "Big", type },
        { file: bytes, thumbnail: FIXTURES.png() },
      );
      expect(res.status, type).toBe(413);
      expect((await res.json()).error).toBe(message);
    }
    // The thumbnail came first and was stored; the oversized file after it takes it down too.
    const form = new FormData();
    form.set("title", "Thumb first");
    form.set("type", "pdf");
    form.set("thumbnail", new Blob([FIXTURES.png()]), "t.png");
    form.set("file", new Blob([FIXTURES.pdf(64 * 1024 + 10)]), "big.pdf");
    const res = await t.request("/api/content", { method: "POST", headers: bearer(access_token), body: form });
    expect(res.status).toBe(413);
    const bigThumb = new Uint8Array(16 * 1024 + 1);
    bigThumb.set(FIXTURES.png());
    const thumbRes = await uploadContent(
      t,
      access_token,
      { title: "Big thumb", type: "pdf" },
      { file: FIXTURES.pdf(), thumbnail: bigThumb },
    );
    expect(thumbRes.status).toBe(413);
    expect((await thumbRes.json()).error).toBe("The thumbnail must be 16 KB or smaller.");
    expect(storedFiles()).toEqual(before);
    expect(
      await t.database.db
        .select()
        .from(contents)
        .where(inArray(contents.title, ["Big", "Thumb first", "Big thumb"])),
    ).toEqual([]);
  });

  it("refuses a declared body larger than any upload before reading it", async () => {
    const { access_token } = await registerUser(t, "creator");
    const res = await t.request("/api/content", {
      method: "POST",
      headers: {
        ...bearer(access_token),
        "content-type": "multipart/form-data; boundary=x",
        "content-length": String(10 * 1024 * 1024),
      },
      body: "--x--",
    });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toMatch(/^The upload is too large\./);
  });

  it("names bad fields and refuses what is not a multipart upload", async () => {
    const { access_token } = await registerUser(t, "creator");
    const cases: [Record<string, string>, string][] = [
      [{ type: "pdf" }, "Title is required"],
      [{ title: "x".repeat(201), type: "pdf" }, "Title must be at most 200 characters"],
      [{ title: "A", type: "audio" }, "Type must be pdf, video or live"],
      [{ title: "A", type: "pdf", price: "-1" }, "Price cannot be negative"],
      [{ title: "A", type: "pdf", price: "abc" }, "Price must be a number"],
      [{ title: "A", type: "pdf", price: "1.999" }, "Price can have at most 2 decimal places"],
      [{ title: "A", type: "pdf", businessId: "nope" }, "Please choose an active business"],
    ];
    for (const [fields, message] of cases) {
      const res = await uploadContent(t, access_token, fields, { file: FIXTURES.pdf() });
      expect(res.status, message).toBe(400);
      expect((await res.json()).error).toBe(message);
    }
    const json = await postJson(t, "/api/content", { title: "A", type: "pdf" }, { headers: bearer(access_token) });
    expect(json.status).toBe(400);
    expect((await json.json()).error).toBe("Please send the upload as multipart/form-data.");
  });

  it("assigns to an active business at upload, never to an inactive or expired one", async () => {
    const { access_token, user } = await registerUser(t, "creator");
    const active = await makeCenter(t, "upload-active");
    const inactive = await makeCenter(t, "upload-inactive", { status: "inactive" });
    const expired = await makeCenter(t, "upload-expired", { expiresAt: new Date(Date.now() - 1000) });
    const stranger = await makeCenter(t, "upload-stranger");
    for (const center of [active, inactive, expired]) await joinTeam(t, center.id, user._id);
    const ok = await uploadContent(
      t,
      access_token,
      { title: "Assigned", type: "pdf", businessId: active.id },
      { file: FIXTURES.pdf() },
    );
    expect((await ok.json()).content).toMatchObject({ businessId: active.id, businessName: "Institute upload-active" });
    for (const center of [inactive, expired]) {
      const res = await uploadContent(
        t,
        access_token,
        { title: "Nope", type: "pdf", businessId: center.id },
        { file: FIXTURES.pdf() },
      );
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe("Please choose an active business");
    }
    // An institute whose team the creator is not on: refused, and nothing is kept.
    const before = storedFiles();
    const refused = await uploadContent(
      t,
      access_token,
      { title: "Phishing class", type: "pdf", businessId: stranger.id },
      { file: FIXTURES.pdf() },
    );
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe(NOT_ON_TEAM);
    expect(storedFiles()).toEqual(before);
    expect(await t.database.db.select().from(contents).where(eq(contents.title, "Phishing class"))).toEqual([]);
  });

  it("is for creators only", async () => {
    const student = await registerUser(t, "student");
    const res = await uploadContent(t, student.access_token, { title: "A", type: "pdf" }, { file: FIXTURES.pdf() });
    expect(res.status).toBe(403);
    const anonymous = await t.request("/api/content", { method: "POST", body: new FormData() });
    expect(anonymous.status).toBe(401);
  });
});

describe("GET /api/content/my", () => {
  it("lists only the caller's contents, with search, sorting and pages", async () => {
    const me = await registerUser(t, "creator");
    const other = await creatorWith(1);
    for (const [title, price] of [
      ["Algebra basics", "100"],
      ["Organic chemistry", "300"],
      ["algebra advanced", "200"],
    ]) {
      expect(
        (await uploadContent(t, me.access_token, { title, type: "pdf", price }, { file: FIXTURES.pdf() })).status,
      ).toBe(201);
    }
    const all = await (await t.request("/api/content/my", { headers: bearer(me.access_token) })).json();
    expect(all.total).toBe(3);
    expect(all.contents.map((c: { title: string }) => c.title)).toEqual([
      "algebra advanced",
      "Organic chemistry",
      "Algebra basics",
    ]);
    expect(all.contents.some((c: { _id: string }) => c._id === other.ids[0])).toBe(false);

    const search = await (
      await t.request("/api/content/my?q=ALGEBRA&sort=price&dir=asc", { headers: bearer(me.access_token) })
    ).json();
    expect(search.contents.map((c: { price: number }) => c.price)).toEqual([100, 200]);
    const byTitle = await (
      await t.request("/api/content/my?sort=title&dir=asc&limit=2&page=2", { headers: bearer(me.access_token) })
    ).json();
    expect(byTitle).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(byTitle.contents.map((c: { title: string }) => c.title)).toEqual(["Organic chemistry"]);
    expect(byTitle.contents[0]).not.toHaveProperty("listTotal");
    // A page past the end is empty and still says how many there are.
    const pastEnd = await (
      await t.request("/api/content/my?limit=2&page=5", { headers: bearer(me.access_token) })
    ).json();
    expect(pastEnd).toMatchObject({ total: 3, page: 5, contents: [] });
    const searchedTotal = await (
      await t.request("/api/content/my?q=algebra&limit=1", { headers: bearer(me.access_token) })
    ).json();
    expect(searchedTotal).toMatchObject({ total: 2 });
    expect(searchedTotal.contents).toHaveLength(1);
    // Wildcards in the search are taken literally.
    const literal = await (await t.request("/api/content/my?q=%25", { headers: bearer(me.access_token) })).json();
    expect(literal.total).toBe(0);
  });
});

describe("one content: view, edit, assign, delete", () => {
  it("shows a creator their content and refuses another creator with 403", async () => {
    const owner = await creatorWith(1);
    const intruder = await registerUser(t, "creator");
    const [id] = owner.ids;
    const mine = await t.request(`/api/content/${id}`, { headers: bearer(owner.access_token) });
    expect(mine.status).toBe(200);
    expect((await mine.json()).content).toMatchObject({ _id: id, title: "Lesson 0", price: 10 });

    const theirs = [
      await t.request(`/api/content/${id}`, { headers: bearer(intruder.access_token) }),
      await putJson(`/api/content/${id}`, intruder.access_token, { title: "Hijacked" }),
      await putJson(`/api/content/${id}/assign`, intruder.access_token, { businessId: null }),
      await t.request(`/api/content/${id}`, { method: "DELETE", headers: bearer(intruder.access_token) }),
      await t.request(`/api/sales/content/${id}`, { headers: bearer(intruder.access_token) }),
      await t.request(`/api/content/${id}/file-url`, { headers: bearer(intruder.access_token) }),
    ];
    expect(theirs.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403]);
    const [row] = await t.database.db.select().from(contents).where(eq(contents.id, id));
    expect(row.title).toBe("Lesson 0");
    expect(row.archivedAt).toBeNull();

    expect((await t.request(`/api/content/not-an-id`, { headers: bearer(owner.access_token) })).status).toBe(404);
    expect(
      (await t.request(`/api/content/${crypto.randomUUID()}`, { headers: bearer(owner.access_token) })).status,
    ).toBe(404);
  });

  it("edits title, description, price, status and a live class's link", async () => {
    const owner = await creatorWith(1);
    const [id] = owner.ids;
    const res = await putJson(`/api/content/${id}`, owner.access_token, {
      title: "Renamed",
      description: "New words",
      price: 249,
      isActive: false,
    });
    expect(res.status).toBe(200);
    expect((await res.json()).content).toMatchObject({
      title: "Renamed",
      description: "New words",
      price: 249,
      isActive: false,
    });

    const bad = await putJson(`/api/content/${id}`, owner.access_token, { title: "", price: -5 });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe("Title is required");
    const [row] = await t.database.db.select().from(contents).where(eq(contents.id, id));
    expect(row).toMatchObject({ title: "Renamed", price: 24900, isActive: false });

    const live = await (
      await uploadContent(t, owner.access_token, {
        title: "Live",
        type: "live",
        liveLink: "https://meet.example.com/a",
      })
    ).json();
    const moved = await putJson(`/api/content/${live.content._id}`, owner.access_token, {
      liveLink: "https://meet.example.com/b",
    });
    expect((await moved.json()).content.liveLink).toBe("https://meet.example.com/b");
    const cleared = await putJson(`/api/content/${live.content._id}`, owner.access_token, { liveLink: "" });
    expect(cleared.status).toBe(400);
    expect((await cleared.json()).error).toBe("Please enter the live link for a live class");
    const insecure = await putJson(`/api/content/${live.content._id}`, owner.access_token, {
      liveLink: "http://meet.example.com/b",
    });
    expect((await insecure.json()).error).toBe("The live link must be a valid https:// URL");
  });

  it("assigns only to active businesses and unassigns with null", async () => {
    const owner = await creatorWith(1);
    const [id] = owner.ids;
    const active = await makeCenter(t, "assign-active");
    const inactive = await makeCenter(t, "assign-inactive", { status: "inactive" });
    const stranger = await makeCenter(t, "assign-stranger");
    await joinTeam(t, active.id, owner.user._id);
    await joinTeam(t, inactive.id, owner.user._id);

    const list = await (await t.request("/api/businesses", { headers: bearer(owner.access_token) })).json();
    // Only the live institutes whose team the creator is on.
    expect(list.businesses).toEqual([{ _id: active.id, name: "Institute assign-active" }]);
    expect((await t.request("/api/businesses")).status).toBe(401);

    const ok = await putJson(`/api/content/${id}/assign`, owner.access_token, { businessId: active.id });
    expect(ok.status).toBe(200);
    expect((await ok.json()).content).toMatchObject({ businessId: active.id, businessName: "Institute assign-active" });
    for (const businessId of [inactive.id, "junk"]) {
      const res = await putJson(`/api/content/${id}/assign`, owner.access_token, { businessId });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe("Please choose an active business");
    }
    // Not on the team (or no such institute, told apart from neither): 403, and the content stays where it was.
    for (const businessId of [stranger.id, crypto.randomUUID()]) {
      const res = await putJson(`/api/content/${id}/assign`, owner.access_token, { businessId });
      expect(res.status).toBe(403);
      expect((await res.json()).error).toBe(NOT_ON_TEAM);
    }
    const [kept] = await t.database.db
      .select({ centerId: contents.centerId })
      .from(contents)
      .where(eq(contents.id, id));
    expect(kept.centerId).toBe(active.id);
    const none = await putJson(`/api/content/${id}/assign`, owner.access_token, { businessId: null });
    expect((await none.json()).content.businessId).toBeNull();
  });

  it("deletes unsold content with its files, and archives content students bought", async () => {
    const owner = await registerUser(t, "creator");
    const student = await registerUser(t, "student");
    const sold = await (
      await uploadContent(
        t,
        owner.access_token,
        { title: "Sold", type: "pdf", price: "99" },
        { file: FIXTURES.pdf(), thumbnail: FIXTURES.png() },
      )
    ).json();
    const unsold = await (
      await uploadContent(
        t,
        owner.access_token,
        { title: "Unsold", type: "pdf" },
        { file: FIXTURES.pdf(), thumbnail: FIXTURES.png() },
      )
    ).json();
    const enrolledOnly = await (
      await uploadContent(t, owner.access_token, { title: "Free", type: "pdf" }, { file: FIXTURES.pdf() })
    ).json();
    await insertPaidOrder(t, sold.content._id, student.user._id, 9900);
    await t.database.db
      .insert(enrollments)
      .values({ studentId: student.user._id, contentId: enrolledOnly.content._id });
    const [unsoldRow] = await t.database.db.select().from(contents).where(eq(contents.id, unsold.content._id));
    const before = storedFiles();
    expect(before).toContain(unsoldRow.fileKey);

    const del = await t.request(`/api/content/${unsold.content._id}`, {
      method: "DELETE",
      headers: bearer(owner.access_token),
    });
    expect(await del.json()).toMatchObject({ success: true, archived: false });
    expect(await t.database.db.select().from(contents).where(eq(contents.id, unsold.content._id))).toEqual([]);
    expect(storedFiles()).not.toContain(unsoldRow.fileKey);
    expect(storedFiles()).not.toContain(unsoldRow.thumbnailKey);

    for (const kept of [sold, enrolledOnly]) {
      const res = await t.request(`/api/content/${kept.content._id}`, {
        method: "DELETE",
        headers: bearer(owner.access_token),
      });
      expect(await res.json()).toMatchObject({ success: true, archived: true });
      const [row] = await t.database.db.select().from(contents).where(eq(contents.id, kept.content._id));
      expect(row.archivedAt).not.toBeNull();
      expect(row.isActive).toBe(false);
      expect(storedFiles()).toContain(row.fileKey);
    }
    // Gone from the creator's list and pages, and deleting twice is a 404.
    const mine = await (await t.request("/api/content/my", { headers: bearer(owner.access_token) })).json();
    expect(mine.total).toBe(0);
    expect((await t.request(`/api/content/${sold.content._id}`, { headers: bearer(owner.access_token) })).status).toBe(
      404,
    );
    expect(
      (await t.request(`/api/content/${sold.content._id}`, { method: "DELETE", headers: bearer(owner.access_token) }))
        .status,
    ).toBe(404);
    // Its sales remain.
    const sales = await (await t.request("/api/sales/my", { headers: bearer(owner.access_token) })).json();
    expect(sales.sales).toContainEqual({
      contentId: sold.content._id,
      title: "Sold",
      totalSales: 1,
      totalEarnings: 99,
    });
  });
});
