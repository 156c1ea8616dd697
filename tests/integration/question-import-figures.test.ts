import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { questions } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { deflated, deflatedRepeat, stored, zip } from "../helpers/bombs.ts";
import { QUESTION_ARCHIVE_TEXTS } from "../../server/services/mock-tests/question-archive.ts";
import { QUESTION_IMAGE_TEXTS } from "../../server/services/mock-tests/question-images.ts";

/**
 * Issue 38 §1: figures inside imports. A sheet in a ZIP names its figures by file name; a sheet
 * names others by http(s) address, fetched once at import, never from the server's own network.
 * A figure that cannot be had names its row, and nothing is imported; an archive that asks for
 * more than the limits is refused before it expands.
 */

let t: TestApp;
let owner: Awaited<ReturnType<typeof register>>;
let center: { id: string; customDomain: string | null };
let server: Server;
let origin: string;
const hits = new Map<string, number>();
let png: Buffer;

const HEADER = "type,text,option_a,option_b,answer,solution\n";

async function importFile(bytes: Uint8Array | string, name: string) {
  const form = new FormData();
  form.set("file", new File([bytes as BlobPart], name));
  const res = await t.request(`/api/questions/import?bank=${center.id}`, {
    method: "POST",
    body: form,
    headers: bearer(owner.access_token),
  });
  return { status: res.status, body: await res.json() };
}

const bankSize = async () =>
  (await t.database.db.select().from(questions).where(eq(questions.centerId, center.id))).length;
const FIGURE_URL = new RegExp(`/media/question-images/${"[0-9a-f-]{36}"}/[0-9a-f-]{36}\\.webp`);

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t, "business", { name: "Figure Owner" });
  center = await createCenter(t, owner.user._id, { instituteName: "Figures Academy" });
  png = await sharp({ create: { width: 300, height: 200, channels: 3, background: "#0a7" } })
    .png()
    .toBuffer();
  server = createServer((req, res) => {
    const path = req.url ?? "/";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === "/figure.png") return res.writeHead(200, { "content-type": "image/png" }).end(png);
    if (path === "/huge.png") return res.writeHead(200).end(Buffer.alloc(6 * 1024 * 1024));
    if (path === "/to-private") return res.writeHead(302, { location: "http://10.1.2.3/secret.png" }).end();
    if (path === "/slow.png") return; // never answers
    res.writeHead(404).end();
  });
  server.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  server.close();
  await t.close();
});

describe("a ZIP of a sheet and its figures", () => {
  it("stores the figures the rows name and puts their addresses into the questions", async () => {
    const csv =
      HEADER +
      `single,"Which ray is shown?\n\n![Figure](figures/ray.png)",![A](option-a.png),Straight,A,"See ![the diagram](<Lens Diagram.svg>)"\n`;
    const archive = zip([
      deflated("bank/questions.csv", csv),
      stored("bank/figures/ray.png", png),
      stored("bank/option-a.png", png),
      deflated(
        "bank/Lens Diagram.svg",
        '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60"><circle cx="60" cy="30" r="25" fill="#c60"/></svg>',
      ),
      stored("__MACOSX/bank/._questions.csv", "resource fork"),
    ]);
    const res = await importFile(archive, "physics.zip");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const [question] = res.body.questions;
    expect(question.text).toMatch(new RegExp(`^Which ray is shown\\?\\n\\n!\\[Figure\\]\\(${FIGURE_URL.source}\\)$`));
    expect(question.options[0]).toMatch(new RegExp(`^!\\[A\\]\\(${FIGURE_URL.source}\\)$`));
    expect(question.solution).toMatch(new RegExp(`^See !\\[the diagram\\]\\(${FIGURE_URL.source}\\)$`));
    const url = FIGURE_URL.exec(question.text)![0];
    expect(url).toContain(`/question-images/${center.id}/`);
    const served = await t.request(url, { host: center.customDomain! });
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/webp");
  });

  it("names the row whose figure is not in the ZIP, and imports nothing", async () => {
    const before = await bankSize();
    const csv = HEADER + "single,Fine,A,B,A,\nsingle,![Figure](missing.png),A,B,B,\n";
    const res = await importFile(zip([deflated("q.csv", csv), stored("other.png", png)]), "bank.zip");
    expect(res).toMatchObject({
      status: 400,
      body: { problems: [{ where: "Row 3", message: QUESTION_ARCHIVE_TEXTS.missing("missing.png") }] },
    });
    expect(await bankSize()).toBe(before);
  });

  it("names the row whose figure is not an image", async () => {
    const csv = HEADER + "single,![Figure](fake.png),A,B,A,\n";
    const res = await importFile(zip([deflated("q.csv", csv), stored("fake.png", "not an image at all")]), "b.zip");
    expect(res).toMatchObject({
      status: 400,
      body: {
        problems: [{ where: "Row 2", message: `The image fake.png was refused: ${QUESTION_IMAGE_TEXTS.wrongType}` }],
      },
    });
  });

  it("wants exactly one sheet", async () => {
    const res = await importFile(zip([deflated("a.csv", HEADER), deflated("b.csv", HEADER)]), "two.zip");
    expect(res).toMatchObject({
      status: 400,
      body: { problems: [{ where: "The file", message: QUESTION_ARCHIVE_TEXTS.oneSheet }] },
    });
  });

  it("refuses a ZIP that unpacks too far or holds too many files, before it expands", async () => {
    const bomb = await deflatedRepeat("figures/zeros.png", {
      head: "",
      chunk: "\0".repeat(1024 * 1024),
      times: 200,
      tail: "",
    });
    const big = await importFile(
      zip([deflated("q.csv", HEADER + "single,![x](figures/zeros.png),A,B,A,\n"), bomb]),
      "bomb.zip",
    );
    expect(big).toMatchObject({ status: 413, body: { error: QUESTION_ARCHIVE_TEXTS.unpacksTooFar } });
    const crowd = zip(Array.from({ length: 1_001 }, (_, i) => stored(`f${i}.png`, "")));
    expect(await importFile(crowd, "crowd.zip")).toMatchObject({
      status: 413,
      body: { error: QUESTION_ARCHIVE_TEXTS.tooManyEntries },
    });
    expect(await importFile("PK not really", "broken.zip")).toMatchObject({
      status: 400,
      body: { problems: [{ where: "The file", message: QUESTION_ARCHIVE_TEXTS.unreadable }] },
    });
  });
});

describe("figures named by address", () => {
  it("never fetches from the server's own or a private network", async () => {
    t.services.questionImages.fetchOptions = {};
    for (const address of [`${origin}/figure.png`, "http://10.0.0.7/x.png", "http://[::1]/x.png"]) {
      const res = await importFile(HEADER + `single,![Figure](${address}),A,B,A,\n`, "bank.csv");
      expect(res, address).toMatchObject({
        status: 400,
        body: {
          problems: [
            {
              where: "Row 2",
              message: `The image ${address} could not be fetched: its address is not on the public internet`,
            },
          ],
        },
      });
    }
    // A name that resolves to the loopback address is refused at connection time, too.
    const named = `http://localhost:${new URL(origin).port}/figure.png`;
    const res = await importFile(HEADER + `single,![Figure](${named}),A,B,A,\n`, "bank.csv");
    expect(res.body.problems[0].message).toBe(
      `The image ${named} could not be fetched: its address is not on the public internet`,
    );
    expect(hits.get("/figure.png") ?? 0).toBe(0);
  });

  it("fetches each address once and stores its figure (a public server, played here by the test's own)", async () => {
    t.services.questionImages.fetchOptions = { allowAddress: (address) => address === "127.0.0.1" };
    const address = `${origin}/figure.png`;
    const csv = HEADER + `single,![Figure](${address}),A,B,A,\nsingle,Again ![Figure](${address}),A,B,B,\n`;
    const res = await importFile(csv, "bank.csv");
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(hits.get("/figure.png")).toBe(1);
    expect(res.body.questions[0].text).toMatch(FIGURE_URL);
    expect(res.body.questions[1].text).toBe(`Again ${res.body.questions[0].text}`);
  });

  it("names the row of an address that redirects elsewhere, is too large, missing or too slow", async () => {
    const cases: [string, string][] = [
      ["/to-private", "its address is not on the public internet"],
      ["/huge.png", "the image is larger than 5 MB"],
      ["/gone.png", "the site answered 404"],
      ["/slow.png", "the site did not answer in time"],
    ];
    for (const [path, reason] of cases) {
      // Only the address that never answers is waited on briefly: reading 6 MB took over half a second on a loaded run.
      const timeoutMs = path === "/slow.png" ? 500 : 15_000;
      t.services.questionImages.fetchOptions = { allowAddress: (a) => a === "127.0.0.1", timeoutMs };
      const res = await importFile(HEADER + `single,![Figure](${origin}${path}),A,B,A,\n`, "bank.csv");
      expect(res, path).toMatchObject({
        status: 400,
        body: { problems: [{ where: "Row 2", message: `The image ${origin}${path} could not be fetched: ${reason}` }] },
      });
    }
  });
});
