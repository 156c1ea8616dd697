import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPublicAddress, networkProbe } from "./domain-probe.ts";

describe("networkProbe", () => {
  const seen: { url?: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url, headers: req.headers });
    if (req.url === "/big") return res.end("x".repeat(100_000));
    if (req.url === "/moved") return res.writeHead(301, { location: "http://elsewhere.test/" }).end();
    res.end("the answer");
  });
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("asks a special-use name (the demo's, the tests') on this server's own port, naming it in Host", async () => {
    const probe = networkProbe({ localPort: port });
    expect(await probe.get("academy.test", "/.well-known/pathshala-domain/t")).toEqual({
      status: 200,
      body: "the answer",
    });
    expect(seen.at(-1)).toMatchObject({ url: "/.well-known/pathshala-domain/t", headers: { host: "academy.test" } });
  });

  it("reads at most a KiB and follows no redirect", async () => {
    const probe = networkProbe({ localPort: port });
    expect((await probe.get("academy.localhost", "/big"))?.body.length).toBeLessThanOrEqual(1024);
    expect(await probe.get("academy.localhost", "/moved")).toEqual({ status: 301, body: "" });
  });

  it("answers null when nothing listens, and no TXT records for a special-use name", async () => {
    const closed = networkProbe({ localPort: 1 });
    expect(await closed.get("academy.test", "/")).toBeNull();
    expect(await closed.txt("_pathshala.academy.test")).toEqual([]);
  });
});

describe("isPublicAddress", () => {
  it("refuses loopback, private, link-local, shared and multicast addresses, so a check never probes them", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "224.0.0.1",
      "::1",
      "fd00::1",
      "fe80::1",
      "::ffff:127.0.0.1",
    ])
      expect(isPublicAddress(address), address).toBe(false);
    for (const address of ["8.8.8.8", "13.235.1.2", "2606:4700::1111"])
      expect(isPublicAddress(address), address).toBe(true);
  });
});
