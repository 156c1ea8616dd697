import { lookup as dnsLookup } from "node:dns";
import { Resolver } from "node:dns/promises";
import { request } from "node:http";
import { BlockList, isIP, type LookupFunction } from "node:net";
import { isSpecialUseName } from "../runtime/special-names.ts";

/**
 * How the platform looks at a domain it is asked to bind (server/services/domains.ts). Tests
 * give their own, so a domain can be proven or not without the network.
 */
export interface DomainProbe {
  /** The TXT records of a name, each joined from its strings; empty when there are none. */
  txt(name: string): Promise<string[]>;
  /**
   * GET http://{domain}{path}, redirects not followed: the status and the first KiB of the
   * body, or null when the domain could not be reached.
   */
  get(domain: string, path: string): Promise<{ status: number; body: string } | null>;
}

const TIMEOUT_MS = 5_000;
const MAX_BODY = 1024;

/** Addresses a domain on the internet never leads to; the check does not go there. */
const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.168.0.0", 16],
  ["224.0.0.0", 3],
] as const)
  NOT_PUBLIC.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 127],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  NOT_PUBLIC.addSubnet(net, bits, "ipv6");

export function isPublicAddress(raw: string): boolean {
  // An IPv4 address written as IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address it is.
  const address = raw.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "");
  const family = isIP(address);
  return family !== 0 && !NOT_PUBLIC.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** dns.lookup that refuses to lead anywhere but the internet (no probing of private networks). */
const publicOnly: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, "", 4);
    const usable = addresses.filter((a) => isPublicAddress(a.address));
    if (usable.length === 0)
      return callback(Object.assign(new Error(`${hostname} has no public address`), { code: "ENOTFOUND" }), "", 4);
    if (options.all) return (callback as unknown as (e: null, a: typeof usable) => void)(null, usable);
    callback(null, usable[0].address, usable[0].family);
  });
};

/**
 * The network as it is: TXT records from DNS, and the domain's own web server on port 80. A
 * special-use name (`*.localhost`, `*.test`: the demo's and the tests') means this machine, so
 * it is asked on this server's own address and port; a real deployment refuses such names before
 * any check.
 */
export function networkProbe(options: { localPort: number; localHost?: string }): DomainProbe {
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  return {
    async txt(name) {
      if (isSpecialUseName(name)) return [];
      try {
        return (await resolver.resolveTxt(name)).map((parts) => parts.join(""));
      } catch {
        return [];
      }
    },
    get(domain, path) {
      const local = isSpecialUseName(domain);
      return new Promise((resolve) => {
        const req = request(
          {
            host: local ? (options.localHost ?? "127.0.0.1") : domain,
            port: local ? options.localPort : 80,
            path,
            method: "GET",
            headers: { host: domain, "user-agent": "Pathshala domain check", accept: "text/plain" },
            lookup: local ? undefined : publicOnly,
            timeout: TIMEOUT_MS,
          },
          (res) => {
            let body = "";
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => {
              body += chunk;
              if (body.length > MAX_BODY) res.destroy();
            });
            res.on("close", () => resolve({ status: res.statusCode ?? 0, body: body.slice(0, MAX_BODY) }));
          },
        );
        req.on("timeout", () => req.destroy(new Error("timeout")));
        req.on("error", () => resolve(null));
        req.end();
      });
    },
  };
}
