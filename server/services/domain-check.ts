import { promises as dns } from "node:dns";
import { isSpecialUseName } from "../runtime/special-names.ts";

export interface DnsRecordAdvice {
  type: "A" | "CNAME";
  name: string;
  value: string;
}

export interface DomainCheck {
  domain: string;
  records: DnsRecordAdvice[];
  /** Whether the domain already leads to the platform. */
  connected: boolean;
  /** What the domain resolves to now (for the owner to compare). */
  found: string[];
}

function withTimeout<T>(promise: Promise<T>, ms: number, fallback: T): Promise<T> {
  return Promise.race([
    promise.catch(() => fallback),
    new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms).unref()),
  ]);
}

/** The DNS records an institute should create, and whether its domain already points here. */
export async function checkDomain(
  domain: string,
  /** Where institutes point their domains (the platform settings in force). */
  target: { ip: string | null; host: string | null },
): Promise<DomainCheck> {
  const env = { DNS_TARGET_IP: target.ip, DNS_TARGET_HOST: target.host ?? "" };
  const apex = domain.replace(/^www\./, "");
  const records: DnsRecordAdvice[] = [];
  if (env.DNS_TARGET_IP) records.push({ type: "A", name: apex === domain ? "@" : "www", value: env.DNS_TARGET_IP });
  if (env.DNS_TARGET_HOST)
    records.push({ type: "CNAME", name: apex === domain ? "www" : domain.split(".")[0], value: env.DNS_TARGET_HOST });

  // *.localhost always means this machine (RFC 6761), and the demo's and tests' other special-use
  // names (*.test) stand for it too, as the domain proof reads them (domain-probe.ts): connected.
  if (isSpecialUseName(domain)) return { domain, records, connected: true, found: ["127.0.0.1"] };

  const [addresses, cnames] = await Promise.all([
    withTimeout(dns.resolve4(domain), 2000, [] as string[]),
    withTimeout(dns.resolveCname(domain), 2000, [] as string[]),
  ]);
  let targets: string[] = [];
  if (env.DNS_TARGET_IP) targets = [env.DNS_TARGET_IP];
  else if (env.DNS_TARGET_HOST) targets = await withTimeout(dns.resolve4(env.DNS_TARGET_HOST), 2000, [] as string[]);
  const connected =
    (targets.length > 0 && addresses.some((a) => targets.includes(a))) ||
    (env.DNS_TARGET_HOST !== "" && cnames.some((c) => c.replace(/\.$/, "") === env.DNS_TARGET_HOST));
  return { domain, records, connected, found: [...cnames, ...addresses] };
}
