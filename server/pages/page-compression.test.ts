import { gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { compressPage } from "./page-compression.ts";

const page = Buffer.from(`<!DOCTYPE html><html><body>${"<p>Pathshala</p>".repeat(200)}</body></html>`);

describe("compressPage", () => {
  it("gzips a page for a client that takes gzip, and gives back the same page", async () => {
    for (const header of ["gzip, deflate, br, zstd", "br;q=1, gzip;q=0.5", "*"]) {
      const { body, encoding } = await compressPage(page, header);
      expect(encoding).toBe("gzip");
      expect(gunzipSync(body).equals(page)).toBe(true);
      expect(body.length).toBeLessThan(page.length / 10);
    }
  });

  it("sends the page as it is to a client that takes no gzip, or when it is small", async () => {
    for (const header of [null, "", "identity", "deflate", "br", "gzip;q=0"])
      expect(await compressPage(page, header)).toEqual({ body: page });
    const small = Buffer.from("<p>hi</p>");
    expect(await compressPage(small, "gzip")).toEqual({ body: small });
  });
});
