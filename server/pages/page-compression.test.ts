import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compressPage } from "./page-compression.ts";

const page = Buffer.from(`<!DOCTYPE html><html><body>${"<p>Pathshala</p>".repeat(200)}</body></html>`);

describe("compressPage", () => {
  it("uses brotli when welcome, else gzip, and gives back the same page", async () => {
    const br = await compressPage(page, "gzip, deflate, br, zstd");
    expect(br.encoding).toBe("br");
    expect(brotliDecompressSync(br.body).equals(page)).toBe(true);
    expect(br.body.length).toBeLessThan(page.length / 10);
    const gzip = await compressPage(page, "gzip, deflate");
    expect(gzip.encoding).toBe("gzip");
    expect(gunzipSync(gzip.body).equals(page)).toBe(true);
    expect((await compressPage(page, "br;q=0.5, gzip")).encoding).toBe("gzip");
  });

  it("sends the page as it is without an encoding it can use, or when it is small", async () => {
    for (const header of [null, "", "identity", "deflate", "br;q=0"]) expect(await compressPage(page, header)).toEqual({ body: page });
    const small = Buffer.from("<p>hi</p>");
    expect(await compressPage(small, "br")).toEqual({ body: small });
  });
});
