import { describe, expect, it } from "vitest";
import { homeAnswer } from "./tenant-home.ts";

const page = { etag: '"abc123"', body: Buffer.from("<!doctype html><title>t</title>") };
const pairs = (flat: string[]) => {
  const out: [string, string][] = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i], flat[i + 1]]);
  return out;
};
const values = (flat: string[], name: string) => pairs(flat).filter(([n]) => n === name).map(([, v]) => v);

describe("homeAnswer", () => {
  it("gives each answer its own request id over the page's shared headers", () => {
    const first = homeAnswer(page, null, { ifNoneMatch: undefined, secure: false, requestId: "one" });
    const second = homeAnswer(page, null, { ifNoneMatch: undefined, secure: false, requestId: "two" });
    expect(values(first.headers, "X-Request-Id")).toEqual(["one"]);
    expect(values(second.headers, "X-Request-Id")).toEqual(["two"]);
    expect(values(second.headers, "Content-Length")).toEqual([String(page.body.length)]);
    expect(first.status).toBe(200);
    expect(first.body).toBe(page.body);
  });

  it("answers 304 without a body or length when the ETag matches, HSTS only over https", () => {
    const answer = homeAnswer(page, null, { ifNoneMatch: 'W/"other", "abc123"', secure: true, requestId: "r" });
    expect(answer.status).toBe(304);
    expect(answer.body).toBeNull();
    expect(values(answer.headers, "Content-Length")).toEqual([]);
    expect(values(answer.headers, "Strict-Transport-Security")).toEqual(["max-age=63072000"]);
    expect(values(answer.headers, "Content-Security-Policy")[0]).toContain("upgrade-insecure-requests");
    const plain = homeAnswer(page, null, { ifNoneMatch: '"other"', secure: false, requestId: "r" });
    expect(plain.status).toBe(200);
    expect(values(plain.headers, "Strict-Transport-Security")).toEqual([]);
  });

  it("names the encoding of a compressed copy", () => {
    const br = { etag: page.etag, body: Buffer.from([1, 2, 3]) };
    const answer = homeAnswer(br, "br", { ifNoneMatch: undefined, secure: false, requestId: "r" });
    expect(values(answer.headers, "Content-Encoding")).toEqual(["br"]);
    expect(values(answer.headers, "Content-Length")).toEqual(["3"]);
  });
});
