import { describe, expect, it } from "vitest";
import { deflated, deflatedRepeat, stored, zip } from "../../../tests/helpers/bombs.ts";
import { checkZip, ZipFormatError, ZipLimitError } from "./zip-check.ts";

const LIMITS = { maxEntries: 8, maxExpandedBytes: 64 * 1024 };
const limitOf = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error instanceof ZipLimitError ? error.limit : error instanceof ZipFormatError ? "format" : error;
  }
  return "passed";
};

describe("checkZip", () => {
  it("passes an honest archive and hands back the parts asked for, expanded", () => {
    const entries = checkZip(zip([stored("a.txt", "plain"), deflated("b.xml", "<x/>".repeat(100))]), LIMITS, (name) =>
      name.endsWith(".xml"),
    );
    expect(entries.map(({ name, size }) => ({ name, size }))).toEqual([
      { name: "a.txt", size: 5 },
      { name: "b.xml", size: 400 },
    ]);
    expect(entries[0].data).toBeUndefined();
    expect(entries[1].data?.toString()).toBe("<x/>".repeat(100));
  });

  it("refuses more entries, or more declared bytes, than the limits before expanding anything", () => {
    const many = Array.from({ length: 9 }, (_, i) => stored(`${i}.txt`, "x"));
    expect(limitOf(() => checkZip(zip(many), LIMITS))).toBe("entries");
    const big = deflated("big.xml", Buffer.alloc(64 * 1024 + 1, 0x20));
    expect(limitOf(() => checkZip(zip([big]), LIMITS))).toBe("bytes");
  });

  it("stops a lying entry at its declared size: small in both headers, huge inside", async () => {
    const bomb = await deflatedRepeat("sheet.xml", { head: "", chunk: "<row/>", times: 10_000_000, tail: "" });
    expect(bomb.size).toBe(60_000_000);
    expect(limitOf(() => checkZip(zip([{ ...bomb, declare: { central: 1000, local: 1000 } }]), LIMITS))).toBe("format");
    // Said small in the central directory only: the streaming reader would believe the local header.
    expect(limitOf(() => checkZip(zip([{ ...bomb, declare: { central: 1000 } }]), LIMITS))).toBe("format");
  });

  it("refuses bytes hidden between the entries and the directory, and what is not a ZIP", () => {
    expect(limitOf(() => checkZip(zip([stored("a.txt", "a")], Buffer.from("PK\x03\x04hidden")), LIMITS))).toBe(
      "format",
    );
    expect(limitOf(() => checkZip(Buffer.from("type,text,answer\n"), LIMITS))).toBe("format");
    expect(limitOf(() => checkZip(new Uint8Array(), LIMITS))).toBe("format");
    const archive = zip([deflated("a.xml", "<a/>")]);
    expect(limitOf(() => checkZip(archive.subarray(0, archive.length - 30), LIMITS))).toBe("format");
  });
});
