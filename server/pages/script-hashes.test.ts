import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { inlineScriptHashes } from "./script-hashes.ts";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("base64");

describe("inlineScriptHashes", () => {
  it("hashes the text of each inline script, as a policy names it", () => {
    const html = `<head><script>a()</script><script nonce="x" type="module" async="">import "/x.js";\n</script></head>`;
    expect(inlineScriptHashes(html)).toEqual([sha256("a()"), sha256('import "/x.js";\n')]);
    // The value every browser computes for alert('Hello, world.'), as the CSP specification shows it.
    expect(inlineScriptHashes("<script>alert('Hello, world.');</script>")).toEqual([
      "qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng=",
    ]);
  });

  it("leaves out scripts loaded by src, and names a script repeated once", () => {
    const html = `<script src="/a.js"></script><script defer src='/b.js'>ignored()</script><script>x()</script><SCRIPT>x()</SCRIPT >`;
    expect(inlineScriptHashes(html)).toEqual([sha256("x()")]);
  });

  it("reads line breaks as the browser's parser does, and text as UTF-8", () => {
    expect(inlineScriptHashes("<script>a()\r\nb()\rc()</script>")).toEqual([sha256("a()\nb()\nc()")]);
    expect(inlineScriptHashes(`<script>window.p="₹7,000"</script>`)).toEqual([sha256(`window.p="₹7,000"`)]);
  });

  it("finds nothing in a page without inline scripts", () => {
    expect(inlineScriptHashes("<p>script</p><noscript>no</noscript>")).toEqual([]);
  });
});
