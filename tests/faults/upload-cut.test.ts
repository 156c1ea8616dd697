import { readdirSync, statSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import { openDatabase } from "../../server/db/open.ts";
import { contents } from "../../server/db/schema/index.ts";
import { call, runningServer } from "./server.ts";

const f = runningServer();

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => statSync(join(dir, f)).isFile());
  } catch {
    return [];
  }
}

describe("an upload cut off midway", () => {
  it("leaves no content row and no stored bytes", async () => {
    const reg = await call(f.server.base, "/api/auth/register", { body: { name: "Cut Creator", email: `cut.${Date.now()}@example.com`, password: "tangerine-kettle-42", role: "creator" } });
    const creatorId = reg.json.user._id as string;
    const filesDir = join(f.store.dataDir, "files");
    const before = filesUnder(filesDir);

    const boundary = "----pathshala-cut";
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nHalf a video\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nvideo\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="price"\r\n\r\n0\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="lecture.mp4"\r\nContent-Type: video/mp4\r\n\r\n`;
    const mp4Start = Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from("ftypisom"), Buffer.alloc(4 * 1024 * 1024, 7)]);
    const socket = connect(f.server.port, "127.0.0.1");
    await new Promise((r) => socket.once("connect", r));
    socket.write(
      `POST /api/content HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${reg.json.access_token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${50 * 1024 * 1024}\r\n\r\n`,
    );
    socket.write(head);
    socket.write(mp4Start);
    // Bytes are being stored…
    await new Promise((r) => setTimeout(r, 800));
    expect(filesUnder(filesDir).length).toBeGreaterThan(before.length);
    // …and the connection dies.
    socket.destroy();
    await new Promise((r) => setTimeout(r, 1500));

    expect(filesUnder(filesDir).filter((f) => !before.includes(f))).toEqual([]);
    // The f.server is fine and recorded nothing.
    expect((await call(f.server.base, "/healthz")).status).toBe(200);
    const mine = await call(f.server.base, "/api/content/my", { token: reg.json.access_token });
    expect(mine.status).toBe(200);
    expect(mine.json.contents ?? mine.json.items ?? []).toEqual([]);
    if (f.store.databaseUrl) {
      const db = await openDatabase({ databaseUrl: f.store.databaseUrl, poolMax: 1 });
      const [{ n }] = await db.db.select({ n: count() }).from(contents).where(eq(contents.creatorId, creatorId));
      expect(n).toBe(0);
      await db.close();
    }
  }, 60_000);
});
