import { describe, expect, it } from "vitest";
import { sniff } from "./magic.ts";

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe("sniff", () => {
  it("recognises each supported type by its first bytes", () => {
    expect(sniff(bytes([0x89], "PNG", [0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toBe("png");
    expect(sniff(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe("jpeg");
    expect(sniff(bytes("RIFF", [1, 2, 3, 4], "WEBPVP8 "))).toBe("webp");
    expect(sniff(bytes("%PDF-1.7\n"))).toBe("pdf");
    expect(sniff(bytes([0, 0, 0, 0x20], "ftypisom", [0, 0, 2, 0]))).toBe("mp4");
    expect(sniff(bytes([0, 0, 0, 0x14], "ftypqt  ", [0, 0, 0, 0]))).toBe("quicktime");
    expect(sniff(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f]))).toBe("webm");
  });
  it("does not trust anything else", () => {
    expect(sniff(bytes("<html><body>"))).toBeUndefined();
    expect(sniff(bytes("%PD"))).toBeUndefined();
    expect(sniff(new Uint8Array())).toBeUndefined();
  });
});
