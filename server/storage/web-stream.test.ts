import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { readableToWeb } from "./web-stream.ts";

describe("readableToWeb", () => {
  it("gives every chunk in order, then ends", async () => {
    const body = readableToWeb(Readable.from([Buffer.from("ab"), Buffer.from("cd")]));
    expect(await new Response(body).text()).toBe("abcd");
  });

  it("hands an error raised before the first read to the reader instead of throwing it", async () => {
    const body = readableToWeb(createReadStream("/nonexistent/pathshala-file"));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(body.getReader().read()).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("stops the source when the reader cancels, and a late chunk is not pushed into the closed stream", async () => {
    const source = new Readable({ read() {} });
    const reader = readableToWeb(source).getReader();
    source.push(Buffer.from("first"));
    expect((await reader.read()).value?.toString()).toBe("first");
    await reader.cancel();
    expect(source.destroyed).toBe(true);
    // Pushing after destroy is ignored by Node rather than enqueued into a closed controller.
    expect(() => source.push(Buffer.from("late"))).not.toThrow();
  });
});
