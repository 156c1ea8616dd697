import { describe, expect, it } from "vitest";
import { BLOCK_BYTES, FileBlocks } from "./file-blocks.ts";

const SIZE = 3 * BLOCK_BYTES + 1000;
const file = Buffer.from(Uint8Array.from({ length: SIZE }, (_, i) => (i * 7 + 3) % 253));

/** A reader of `file` that records each read it was asked for. */
function reader() {
  const reads: [number, number][] = [];
  const readAt = async (start: number, length: number) => {
    reads.push([start, length]);
    return Buffer.from(file.subarray(start, start + length));
  };
  return { reads, readAt };
}

describe("FileBlocks", () => {
  it("gives any range byte for byte, across block boundaries and at the file's end", async () => {
    const blocks = new FileBlocks(64 * 1024 * 1024);
    const { readAt } = reader();
    for (const [start, length] of [
      [0, 10],
      [BLOCK_BYTES - 5, 10],
      [BLOCK_BYTES - 5, 2 * BLOCK_BYTES + 10],
      [SIZE - 100, 500],
      [SIZE, 10],
    ]) {
      expect(await blocks.read("f", SIZE, start, length, readAt)).toEqual(file.subarray(start, start + length));
    }
  });

  it("reads each block of a file once, whole, then answers from memory", async () => {
    const blocks = new FileBlocks(64 * 1024 * 1024);
    const { reads, readAt } = reader();
    await blocks.read("f", SIZE, BLOCK_BYTES - 5, 65_536, readAt);
    expect(reads).toEqual([
      [0, BLOCK_BYTES],
      [BLOCK_BYTES, BLOCK_BYTES],
    ]);
    await blocks.read("f", SIZE, 100, 65_536, readAt);
    await blocks.read("f", SIZE, BLOCK_BYTES + 100, 65_536, readAt);
    expect(reads).toHaveLength(2);
    await blocks.read("f", SIZE, SIZE - 10, 10, readAt);
    expect(reads.at(-1)).toEqual([3 * BLOCK_BYTES, 1000]);
    expect(blocks.bytes).toBe(2 * BLOCK_BYTES + 1000);
  });

  it("reads another file's blocks afresh, whatever its name was", async () => {
    const blocks = new FileBlocks(64 * 1024 * 1024);
    const { reads, readAt } = reader();
    await blocks.read("dev:1:100:500", SIZE, 0, 10, readAt);
    await blocks.read("dev:2:200:500", SIZE, 0, 10, readAt);
    expect(reads).toHaveLength(2);
  });

  it("keeps no more than its budget", async () => {
    const blocks = new FileBlocks(2 * BLOCK_BYTES);
    const { reads, readAt } = reader();
    for (let index = 0; index < 3; index++) await blocks.read("f", SIZE, index * BLOCK_BYTES, 10, readAt);
    expect(blocks.bytes).toBeLessThanOrEqual(2 * BLOCK_BYTES);
    await blocks.read("f", SIZE, 0, 10, readAt);
    expect(reads).toHaveLength(4);
  });

  it("reads a block once when several ask for it at the same time, and retries one that failed", async () => {
    const blocks = new FileBlocks(64 * 1024 * 1024);
    const { reads, readAt } = reader();
    const ranges = await Promise.all(
      [0, 1000, BLOCK_BYTES - 10].map((start) => blocks.read("f", SIZE, start, 100, readAt)),
    );
    expect(reads).toEqual([
      [0, BLOCK_BYTES],
      [BLOCK_BYTES, BLOCK_BYTES],
    ]);
    expect(ranges[2]).toEqual(file.subarray(BLOCK_BYTES - 10, BLOCK_BYTES + 90));

    let failures = 1;
    const flaky = async (start: number, length: number) => {
      if (failures-- > 0) throw new Error("disk gone");
      return readAt(start, length);
    };
    const both = await Promise.allSettled([
      blocks.read("f", SIZE, 2 * BLOCK_BYTES, 10, flaky),
      blocks.read("f", SIZE, 2 * BLOCK_BYTES, 10, flaky),
    ]);
    expect(both.map((x) => x.status)).toEqual(["rejected", "rejected"]);
    expect(await blocks.read("f", SIZE, 2 * BLOCK_BYTES, 10, flaky)).toEqual(
      file.subarray(2 * BLOCK_BYTES, 2 * BLOCK_BYTES + 10),
    );
  });
});
