import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../server/db/open.ts";
import { runMigrations } from "../../server/db/migrate.ts";
import { DataDirBusyError } from "../../server/db/lock.ts";
import { appMeta } from "../../server/db/schema/index.ts";

const dir = mkdtempSync(join(tmpdir(), "pathshala-embedded-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("embedded PGlite database", () => {
  it("keeps its data across a restart and refuses a second process while held", async () => {
    const first = await openDatabase({ dataDir: dir });
    await runMigrations(first);
    await first.db.insert(appMeta).values({ key: "survives", value: "yes" });

    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(DataDirBusyError);

    await first.close();
    const second = await openDatabase({ dataDir: dir });
    await runMigrations(second);
    const rows = await second.db.select().from(appMeta);
    expect(rows.find((r) => r.key === "survives")?.value).toBe("yes");
    await second.close();
  });
});

describe("embedded backup and restore", () => {
  // Every migration on a fresh embedded database, twice over (dump, then load): tens of seconds on
  // a busy two-core machine, so its timeout allows for that; it catches a hang, not slowness.
  it("round-trips the whole database through an archive", { timeout: 120_000 }, async () => {
    const source = mkdtempSync(join(tmpdir(), "pathshala-backup-"));
    const target = mkdtempSync(join(tmpdir(), "pathshala-restore-"));
    try {
      const original = await openDatabase({ dataDir: source });
      await runMigrations(original);
      await original.db.insert(appMeta).values({ key: "backed-up", value: "42" });
      const archive = await original.dump!();
      await original.close();

      const restored = await openDatabase({ dataDir: target, loadArchive: archive });
      const rows = await restored.db.select().from(appMeta);
      expect(rows.find((r) => r.key === "backed-up")?.value).toBe("42");
      await restored.close();
    } finally {
      rmSync(source, { recursive: true, force: true });
      rmSync(target, { recursive: true, force: true });
    }
  });
});
