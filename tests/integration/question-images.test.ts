import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { loginOn, register } from "../helpers/learning.ts";
import { joinTeam } from "../helpers/team.ts";
import { QUESTION_IMAGE_TEXTS as TEXT } from "../../server/services/mock-tests/question-images.ts";
import { EXAM_ACCESS_TEXTS } from "../../server/services/mock-tests/exam-access.ts";
import { renderMarkdown } from "../../common/mock-tests/render.ts";

/**
 * Issue 38 §1: POST /api/question-images takes a figure for a question from its institute's team
 * only, checks what the bytes are (not the name), re-encodes it for phones, and the figure is
 * served on that institute's domain (and the platform's, where banks are edited), not another's.
 */

let t: TestApp;
type Account = Awaited<ReturnType<typeof register>>;
let ownerA: Account;
let creator: Account;
let outsider: Account;
let student: Account;
let a: { id: string; customDomain: string | null };
let b: { id: string; customDomain: string | null };

const image = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 20, g: 120, b: 200 } } });

async function upload(token: string | null, bytes: Uint8Array | string, name: string, query = "", host?: string) {
  const form = new FormData();
  form.set("file", new File([bytes as BlobPart], name));
  const res = await t.request(`/api/question-images${query}`, {
    method: "POST",
    body: form,
    headers: token ? bearer(token) : {},
    host,
  });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  t = await createTestApp();
  ownerA = await register(t, "business", { name: "Owner A" });
  const ownerB = await register(t, "business", { name: "Owner B" });
  creator = await register(t, "creator", { name: "Team Creator" });
  outsider = await register(t, "creator", { name: "Not On The Team" });
  a = await createCenter(t, ownerA.user._id, { instituteName: "Alpha Academy" });
  b = await createCenter(t, ownerB.user._id, { instituteName: "Beta Classes" });
  await joinTeam(t, a.id, creator.user._id);
  student = await register(t, "student", { name: "A Student", host: a.customDomain! });
});
afterAll(() => t.close());

describe("who may upload", () => {
  it("asks a stranger to sign in and refuses students", async () => {
    const png = await image(10, 10).png().toBuffer();
    expect(await upload(null, png, "f.png", `?bank=${a.id}`)).toMatchObject({
      status: 401,
      body: { error: "Please sign in to continue." },
    });
    expect((await upload(student.access_token, png, "f.png", "", a.customDomain!)).status).toBe(403);
  });

  it("takes a figure only into an institute where the caller is its owner or on its team", async () => {
    const png = await image(10, 10).png().toBuffer();
    expect(await upload(outsider.access_token, png, "f.png", `?bank=${a.id}`)).toMatchObject({
      status: 403,
      body: { error: EXAM_ACCESS_TEXTS.notYourBusiness },
    });
    expect((await upload(ownerA.access_token, png, "f.png", `?bank=${a.id}`)).status).toBe(201);
    expect((await upload(creator.access_token, png, "f.png", `?bank=${a.id}`)).status).toBe(201);
    // The owner of B is not on A's team either.
    expect((await upload(ownerA.access_token, png, "f.png", `?bank=${b.id}`)).status).toBe(403);
    // On B's domain only B's bank can be named.
    const onB = await loginOn(t, b.customDomain!, creator.email);
    expect(await upload(onB, png, "f.png", `?bank=${a.id}`, b.customDomain!)).toMatchObject({
      status: 403,
      body: { error: EXAM_ACCESS_TEXTS.otherBank },
    });
  });
});

describe("what is taken", () => {
  it("re-encodes PNG, JPEG, WebP and SVG as a WebP no wider than 1600 px, whatever the file is called", async () => {
    const cases: [Uint8Array, string][] = [
      [await image(3000, 300).png().toBuffer(), "wide.png"],
      [await image(800, 600).jpeg().toBuffer(), "photo.PNG"],
      [await image(500, 500).webp().toBuffer(), "noext"],
      [
        Buffer.from(
          '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#09c"/><script>alert(1)</script></svg>',
        ),
        "diagram.svg",
      ],
    ];
    for (const [bytes, name] of cases) {
      const res = await upload(creator.access_token, bytes, name, `?bank=${a.id}`);
      expect(res.status, name).toBe(201);
      expect(res.body.url).toMatch(new RegExp(`^/media/question-images/${a.id}/[0-9a-f-]{36}\\.webp$`));
      const served = await t.request(res.body.url, { host: a.customDomain! });
      const meta = await sharp(new Uint8Array(await served.arrayBuffer())).metadata();
      expect(meta.format).toBe("webp");
      expect(meta.width).toBeLessThanOrEqual(1600);
      expect(meta.width).toBe(res.body.width);
    }
  });

  it("refuses other types by their bytes, not their names", async () => {
    const gif = await image(10, 10).gif().toBuffer();
    for (const [bytes, name] of [
      [gif, "figure.png"],
      ["just some text", "figure.jpg"],
      ["%PDF-1.4 not an image", "figure.webp"],
    ] as const) {
      expect(await upload(creator.access_token, bytes, name, `?bank=${a.id}`)).toMatchObject({
        status: 400,
        body: { error: TEXT.wrongType },
      });
    }
    const broken = Buffer.concat([(await image(50, 50).png().toBuffer()).subarray(0, 40), Buffer.alloc(40)]);
    expect(await upload(creator.access_token, broken, "cut.png", `?bank=${a.id}`)).toMatchObject({
      status: 400,
      body: { error: TEXT.unreadable },
    });
  });

  it("refuses an SVG that refers to other files or declares entities", async () => {
    for (const svg of [
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="file:///etc/passwd" width="10" height="10"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(http://10.0.0.1/x.css);</style></svg>',
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]><svg xmlns="http://www.w3.org/2000/svg"><text>&a;</text></svg>',
    ]) {
      expect(await upload(creator.access_token, svg, "x.svg", `?bank=${a.id}`)).toMatchObject({
        status: 400,
        body: { error: TEXT.unsafeSvg },
      });
    }
  });

  it("refuses a file over 5 MB and an image of too many pixels", async () => {
    const big = new Uint8Array(5 * 1024 * 1024 + 200_000);
    expect(await upload(creator.access_token, big, "big.png", `?bank=${a.id}`)).toMatchObject({
      status: 413,
      body: { error: TEXT.tooLarge },
    });
    // A few kilobytes that decode to 100 megapixels.
    const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: "#000" } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    expect(await upload(creator.access_token, bomb, "bomb.png", `?bank=${a.id}`)).toMatchObject({
      status: 413,
      body: { error: TEXT.tooManyPixels },
    });
  });

  it("asks for a file when none is sent", async () => {
    expect(await upload(creator.access_token, "", "empty.png", `?bank=${a.id}`)).toMatchObject({
      status: 400,
      body: { error: TEXT.noFile },
    });
  });
});

describe("where it is served", () => {
  it("on its institute's domain and the platform, as a WebP kept for a year, and not on another institute's domain", async () => {
    const { body } = await upload(creator.access_token, await image(40, 40).png().toBuffer(), "f.png", `?bank=${a.id}`);
    const onA = await t.request(body.url, { host: a.customDomain! });
    expect(onA.status).toBe(200);
    expect(onA.headers.get("content-type")).toBe("image/webp");
    expect(onA.headers.get("x-content-type-options")).toBe("nosniff");
    expect(onA.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await t.request(body.url)).status).toBe(200);
    const onB = await t.request(body.url, { host: b.customDomain! });
    expect(onB.status).toBe(404);
  });

  it("puts the figure into a question's Markdown as an image of the site's own address", async () => {
    const { body } = await upload(creator.access_token, await image(40, 40).png().toBuffer(), "f.png", `?bank=${a.id}`);
    const html = renderMarkdown(`A ray meets the mirror:\n\n![Figure](${body.url})`);
    expect(html).toContain(`<img src="${body.url}" alt="Figure" loading="lazy" decoding="async">`);
    // Another address in the site's media folder is not a question image.
    expect(renderMarkdown("![x](/media/avatars/a.png)")).not.toContain("<img");
  });

  it("keeps the author's own bank's figures apart from any institute's", async () => {
    const { status, body } = await upload(creator.access_token, await image(20, 20).png().toBuffer(), "f.png");
    expect(status).toBe(201);
    expect(body.url).toMatch(/^\/media\/question-images\/own\/[0-9a-f-]{36}\.webp$/);
  });
});
