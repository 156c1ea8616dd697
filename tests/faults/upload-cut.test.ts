import { readdirSync, statSync } from "node:fs";
import type { Socket } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import { openDatabase } from "../../server/db/open.ts";
import { contents } from "../../server/db/schema/index.ts";
import { makePdf } from "../helpers/pdf.ts";
import { waitFor } from "../helpers/wait.ts";
import { call, launch, runningServer } from "./server.ts";
import { PASSWORD, contentsOf, newCreator, startUpload } from "./uploads.ts";

/**
 * Uploads to the production build cut off by the client (its connection closed or reset) or by
 * a crash of the server (SIGKILL): nothing of them is kept, and the server goes on.
 */
const f = runningServer();
/** How long a cut-off upload's bytes may outlive the connection. */
const GONE_WITHIN_MS = 3000;

const filesDir = () => join(f.store.dataDir, "files");

/** Every file under DATA_DIR/files with its size, by path relative to it. */
function storedFiles(): Record<string, number> {
  const root = filesDir();
  try {
    const entries = readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    return Object.fromEntries(
      entries.map((e) => [
        join(e.parentPath, e.name).slice(root.length + 1),
        statSync(join(e.parentPath, e.name)).size,
      ]),
    );
  } catch {
    return {};
  }
}
/** Unfinished uploads' files (DiskStorage writes them under .partial/<pid>/). */
const unfinished = () => Object.keys(storedFiles()).filter((path) => path.startsWith(".partial/"));
const finished = () =>
  Object.fromEntries(Object.entries(storedFiles()).filter(([path]) => !path.startsWith(".partial/")));

/** On PostgreSQL, the rows themselves (the embedded database belongs to the running server). */
async function rowsOf(creatorId: string): Promise<number | null> {
  if (!f.store.databaseUrl) return null;
  const db = await openDatabase({ databaseUrl: f.store.databaseUrl, poolMax: 1 });
  try {
    const [{ n }] = await db.db.select({ n: count() }).from(contents).where(eq(contents.creatorId, creatorId));
    return n;
  } finally {
    await db.close();
  }
}

/** A whole upload through the API (fetch's FormData), answered 201. */
async function upload(token: string, title: string, type: "pdf" | "video", bytes: Uint8Array<ArrayBuffer>) {
  const form = new FormData();
  form.set("title", title);
  form.set("type", type);
  form.set("file", new Blob([bytes]), type === "pdf" ? "notes.pdf" : "clip.mp4");
  const res = await fetch(`${f.server.base}/api/content`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  expect(res.status, await res.clone().text()).toBe(201);
}
const mp4 = (size: number) =>
  new Uint8Array(Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from("ftypisom"), Buffer.alloc(size - 12, 9)]));

describe("a client that goes away mid-upload", () => {
  for (const [how, cut] of [
    ["closes its connection", (s: Socket) => s.destroy()],
    ["resets its connection", (s: Socket) => s.resetAndDestroy()],
  ] as const) {
    it(`${how}: its unfinished file is removed at once, no content is recorded, and the server goes on`, async () => {
      const creator = await newCreator(f.server.base);
      const before = storedFiles();
      const socket = await startUpload(f.server.port, { token: creator.token });
      // Bytes are being stored…
      await waitFor(() => unfinished().some((path) => storedFiles()[path] > 0), 10_000);
      // …and the connection dies.
      cut(socket);
      await waitFor(() => unfinished().length === 0, GONE_WITHIN_MS);
      expect(storedFiles()).toEqual(before);

      expect((await call(f.server.base, "/healthz")).status).toBe(200);
      expect(await contentsOf(f.server.base, creator.token)).toEqual([]);
      expect([0, null]).toContain(await rowsOf(creator.id));
      // The next upload is received as usual.
      await upload(creator.token, "After the cut", "video", mp4(64 * 1024));
      expect(await contentsOf(f.server.base, creator.token)).toEqual(["After the cut"]);
    });
  }

  it("closes the connection of the page's own form (sent without JavaScript): the same", async () => {
    const creator = await newCreator(f.server.base);
    const login = await call(f.server.base, "/auth?role=creator", {
      body: new URLSearchParams({
        intent: "login",
        role: "creator",
        email: creator.email,
        password: PASSWORD,
      }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded", origin: f.server.base },
    });
    expect(login.status).toBe(302);
    const cookie = ([login.headers["set-cookie"]].flat() as string[])
      .find((c) => c.startsWith("pathshala_session="))!
      .split(";")[0];
    const before = storedFiles();
    const socket = await startUpload(f.server.port, { cookie }, "/creator/upload");
    await waitFor(() => unfinished().some((path) => storedFiles()[path] > 0), 10_000);
    socket.destroy();
    await waitFor(() => unfinished().length === 0, GONE_WITHIN_MS);
    expect(storedFiles()).toEqual(before);
    expect((await call(f.server.base, "/healthz")).status).toBe(200);
    expect(await contentsOf(f.server.base, creator.token)).toEqual([]);
    expect([0, null]).toContain(await rowsOf(creator.id));
  });
});

describe("a server killed mid-upload", () => {
  it("removes the upload's unfinished file when it starts again, and touches no stored file", async () => {
    const creator = await newCreator(f.server.base);
    await upload(creator.token, "Kept notes", "pdf", await makePdf(2));
    await upload(creator.token, "Kept clip", "video", mp4(256 * 1024));
    const kept = finished();
    expect(Object.keys(kept).length).toBeGreaterThanOrEqual(2);

    const socket = await startUpload(f.server.port, { token: creator.token });
    await waitFor(() => unfinished().some((path) => storedFiles()[path] > 0), 10_000);
    f.server.child.kill("SIGKILL");
    await f.server.exited;
    socket.destroy();
    // The crash left the unfinished file behind…
    expect(unfinished()).toHaveLength(1);

    // …and the next start removes it, and only it.
    f.server = await launch(f.store, {}, f.server.port);
    expect(unfinished()).toEqual([]);
    expect(finished()).toEqual(kept);
    expect((await contentsOf(f.server.base, creator.token)).sort()).toEqual(["Kept clip", "Kept notes"]);
    expect([2, null]).toContain(await rowsOf(creator.id));
  });
});
