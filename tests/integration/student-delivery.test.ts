import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { enrollments } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { FIXTURES } from "../helpers/content.ts";
import { enrol, myCourses, publish, register } from "../helpers/learning.ts";
import { makePdf, pageTexts } from "../helpers/pdf.ts";
import { joinTeam } from "../helpers/team.ts";

let t: TestApp;
let creator: Awaited<ReturnType<typeof register>>;
let student: Awaited<ReturnType<typeof register>>;
let outsider: Awaited<ReturnType<typeof register>>;
let videoId: string;
let pdfId: string;
let pdfBytes: Uint8Array<ArrayBuffer>;
const VIDEO_SIZE = 20_000;
const video = FIXTURES.mp4(VIDEO_SIZE).map((b, i) => (i < 12 ? b : i % 253)) as Uint8Array<ArrayBuffer>;

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  creator = await register(t, "creator", { name: "Rahul Verma" });
  student = await register(t, "student", { name: "Asha Rao" });
  outsider = await register(t, "student", { name: "Someone Else" });
  const center = await createCenter(t, null, { instituteName: "Sunrise Academy" });
  await joinTeam(t, center.id, creator.user._id);
  // Free, so that enrolling needs no payment here (payments have their own tests).
  videoId = await publish(
    t,
    creator.access_token,
    { title: "Rolling video", type: "video", price: "0", businessId: center.id },
    video,
    "rolling.mp4",
  );
  pdfBytes = await makePdf(3);
  pdfId = await publish(
    t,
    creator.access_token,
    { title: "Formula sheet", type: "pdf", price: "0", businessId: center.id },
    pdfBytes,
    "formula-sheet.pdf",
  );
  for (const id of [videoId, pdfId]) expect((await enrol(t, student.access_token, id)).status).toBe(201);
});
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}) => t.request(url, { headers });
const fileUrlFor = async (token: string, contentId: string) => {
  const res = await t.request(`/api/content/${contentId}/file-url`, { headers: bearer(token) });
  return { status: res.status, body: await res.json() };
};
const bytesOf = async (res: Response) => new Uint8Array(await res.arrayBuffer());

describe("who may open a content's file", () => {
  it("its owner: the original file", async () => {
    const { status, body } = await fileUrlFor(creator.access_token, pdfId);
    expect(status).toBe(200);
    const res = await get(body.url);
    expect(res.status).toBe(200);
    expect(await bytesOf(res)).toEqual(pdfBytes);
  });

  it("an enrolled student: through a link that my-courses gives and file-url renews", async () => {
    const items = await myCourses(t, student.access_token);
    const item = items.find((i) => i.content._id === videoId)!;
    expect(item.content.fileUrl).toMatch(
      new RegExp(`^/api/files/${videoId}/rolling\\.mp4\\?u=${student.user._id}&e=\\d+&s=`),
    );
    const res = await get(item.content.fileUrl as string);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/^private, /);
    expect(await bytesOf(res)).toEqual(video);

    const renewed = await fileUrlFor(student.access_token, videoId);
    expect(renewed.status).toBe(200);
    expect(Date.parse(renewed.body.expiresAt)).toBeGreaterThan(Date.now());
    expect((await get(renewed.body.url)).status).toBe(200);
  });

  it("a student who is not enrolled: 403, with no link to be had", async () => {
    const { status, body } = await fileUrlFor(outsider.access_token, videoId);
    expect(status).toBe(403);
    expect(body.error).toBe("You do not have access to this file.");
  });

  it("nobody with an expired or tampered link: 403", async () => {
    const row = (await t.services.content.findAny(videoId))!;
    const reader = { id: student.user._id, role: "student" as const };
    const old = await t.services.delivery.link(reader, row, 60, new Date(Date.now() - 10 * 60 * 1000));
    const expired = await get(old!.url);
    expect(expired.status).toBe(403);
    expect((await expired.json()).error).toBe("This link has expired. Please open the file again.");

    const { body } = await fileUrlFor(student.access_token, videoId);
    const url = new URL(body.url, "http://localhost");
    const forged = new URL(url);
    forged.searchParams.set(
      "s",
      url.searchParams.get("s")!.replace(/^./, (c) => (c === "A" ? "B" : "A")),
    );
    const longer = new URL(url);
    longer.searchParams.set("e", String(Number(url.searchParams.get("e")) + 86_400));
    // Someone else's id with the student's signature: signatures bind the user.
    const reassigned = new URL(url);
    reassigned.searchParams.set("u", outsider.user._id);
    for (const bad of [forged, longer, reassigned]) {
      const res = await get(bad.pathname + bad.search);
      expect(res.status).toBe(403);
      expect((await res.json()).error).toBe("This link is not valid.");
    }
  });

  it("nobody signed in as another user, even with a valid link: 403", async () => {
    const { body } = await fileUrlFor(student.access_token, videoId);
    const res = await get(body.url, bearer(outsider.access_token));
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe("This link belongs to another account.");
  });

  it("ends with the enrolment: a link issued before stops working", async () => {
    const late = await register(t, "student");
    await enrol(t, late.access_token, videoId);
    const { body } = await fileUrlFor(late.access_token, videoId);
    expect((await get(body.url)).status).toBe(200);
    await t.database.db
      .delete(enrollments)
      .where(and(eq(enrollments.studentId, late.user._id), eq(enrollments.contentId, videoId)));
    const res = await get(body.url);
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe("You do not have access to this file.");
  });
});

describe("byte ranges for an enrolled student's video", () => {
  let url: string;
  beforeAll(async () => {
    url = (await fileUrlFor(student.access_token, videoId)).body.url;
  });

  it("the first bytes", async () => {
    const res = await get(url, { range: "bytes=0-1023" });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 0-1023/${VIDEO_SIZE}`);
    expect(res.headers.get("content-length")).toBe("1024");
    expect(res.headers.get("accept-ranges")).toBe("bytes");
    expect(await bytesOf(res)).toEqual(video.slice(0, 1024));
  });

  it("the middle (a seek)", async () => {
    const res = await get(url, { range: "bytes=12000-" });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes 12000-${VIDEO_SIZE - 1}/${VIDEO_SIZE}`);
    expect(await bytesOf(res)).toEqual(video.slice(12000));
  });

  it("a suffix", async () => {
    const res = await get(url, { range: "bytes=-500" });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-range")).toBe(`bytes ${VIDEO_SIZE - 500}-${VIDEO_SIZE - 1}/${VIDEO_SIZE}`);
    expect(await bytesOf(res)).toEqual(video.slice(VIDEO_SIZE - 500));
  });

  it("beyond the end: 416", async () => {
    const res = await get(url, { range: `bytes=${VIDEO_SIZE + 10}-` });
    expect(res.status).toBe(416);
    expect(res.headers.get("content-range")).toBe(`bytes */${VIDEO_SIZE}`);
  });
});

describe("an enrolled student's PDF", () => {
  it("is stamped with their name and e-mail on every page", async () => {
    const item = (await myCourses(t, student.access_token)).find((i) => i.content._id === pdfId)!;
    const res = await get(item.content.fileUrl as string);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("cache-control")).toMatch(/^private, /);
    const served = await bytesOf(res);
    expect(Number(res.headers.get("content-length"))).toBe(served.byteLength);
    expect(served).not.toEqual(pdfBytes);
    const texts = await pageTexts(served);
    expect(texts).toHaveLength(3);
    for (const text of texts) expect(text).toContain(`Licensed to Asha Rao (${student.email})`);
    // The original in storage is untouched, and its creator gets it unstamped.
    const own = await get((await fileUrlFor(creator.access_token, pdfId)).body.url);
    for (const text of await pageTexts(await bytesOf(own))) expect(text).not.toContain("Licensed to");
  });

  it("is served in ranges that add up to the same stamped file", async () => {
    const { body } = await fileUrlFor(student.access_token, pdfId);
    const whole = await bytesOf(await get(body.url));
    const head = await get(body.url, { range: "bytes=0-99" });
    expect(head.status).toBe(206);
    expect(head.headers.get("content-range")).toBe(`bytes 0-99/${whole.byteLength}`);
    const tail = await get(body.url, { range: "bytes=100-" });
    const joined = new Uint8Array([...(await bytesOf(head)), ...(await bytesOf(tail))]);
    expect(joined).toEqual(whole);
    expect((await get(body.url, { range: `bytes=${whole.byteLength}-` })).status).toBe(416);
    // If-Range with the stamped copy's own ETag still gets a range.
    const etag = head.headers.get("etag")!;
    expect((await get(body.url, { range: "bytes=0-9", "if-range": etag })).status).toBe(206);
  });

  it("names whoever downloads it: another student's copy carries their own name", async () => {
    const other = await register(t, "student", { name: "Ravi Kumar" });
    await enrol(t, other.access_token, pdfId);
    const { body } = await fileUrlFor(other.access_token, pdfId);
    const texts = await pageTexts(await bytesOf(await get(body.url)));
    for (const text of texts) {
      expect(text).toContain(`Licensed to Ravi Kumar (${other.email})`);
      expect(text).not.toContain(student.email);
    }
  });
});
