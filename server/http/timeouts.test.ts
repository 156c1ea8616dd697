import { createServer } from "node:http";
import { describe, expect, it } from "vitest";
import { allowLongUploads } from "./timeouts.ts";

describe("allowLongUploads", () => {
  it("lifts Node's 5-minute request limit but keeps an idle limit and the header limit", () => {
    const server = createServer();
    expect(server.requestTimeout).toBe(300_000);
    allowLongUploads(server);
    expect(server.requestTimeout).toBe(0);
    expect(server.timeout).toBe(300_000);
    expect(server.headersTimeout).toBe(60_000);
  });
});
