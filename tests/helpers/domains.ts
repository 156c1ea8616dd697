import { eq, inArray, or } from "drizzle-orm";
import { centers, domainClaims } from "../../server/db/schema/index.ts";
import type { DomainProbe } from "../../server/services/domain-probe.ts";
import type { DomainStateJson } from "#common/domains.ts";
import type { TestApp } from "./app.ts";
import { postJson } from "./http.ts";

/**
 * The world's DNS as a test sets it: TXT records by name, and the domains whose web server is
 * this very app (as when their A or CNAME record points at the platform). Nothing leaves the process.
 */
export class TestDns implements DomainProbe {
  readonly records = new Map<string, string[]>();
  readonly pointed = new Set<string>();
  app?: Pick<TestApp, "request">;

  async txt(name: string): Promise<string[]> {
    return this.records.get(name) ?? [];
  }

  async get(domain: string, path: string): Promise<{ status: number; body: string } | null> {
    if (!this.pointed.has(domain) || !this.app) return null;
    const res = await this.app.request(path, { host: domain });
    return { status: res.status, body: (await res.text()).slice(0, 1024) };
  }
}

/** The business's institute's domain state (GET /api/domains/claim). */
export async function domainState(t: TestApp, auth: Record<string, string>, centerId?: string) {
  const res = await t.request(`/api/domains/claim${centerId ? `?centerId=${centerId}` : ""}`, { headers: auth });
  if (res.status !== 200) throw new Error(`domain state: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { domain: DomainStateJson }).domain;
}

/**
 * Proves the institute's pending domain as its owner would: the TXT record added, then Check now.
 * Returns the domain now bound.
 */
export async function proveDomain(t: TestApp, auth: Record<string, string>, centerId?: string): Promise<string> {
  const { claim } = await domainState(t, auth, centerId);
  if (!claim) throw new Error("no domain waits for proof");
  t.dns.records.set(claim.txt.name, [claim.txt.value]);
  const res = await postJson(t, "/api/domains/verify", centerId ? { centerId } : {}, { headers: auth });
  const body = (await res.json()) as { proven?: boolean; message?: string };
  if (res.status !== 200 || !body.proven) throw new Error(`not proven: ${res.status} ${JSON.stringify(body)}`);
  return claim.domain;
}

/** The centers `domain` names: bound to it, or asking for it (a purchase's domain waits for proof). */
export function centersNamed(t: TestApp, domain: string) {
  const asking = t.database.db
    .select({ id: domainClaims.centerId })
    .from(domainClaims)
    .where(eq(domainClaims.domain, domain));
  return t.database.db
    .select()
    .from(centers)
    .where(or(eq(centers.customDomain, domain), inArray(centers.id, asking)));
}

/** Proves a center's pending domain as its owner would (the TXT record, then Check now), through the service. */
export async function proveCenterDomain(t: TestApp, centerId: string): Promise<string> {
  const [center] = await t.database.db.select().from(centers).where(eq(centers.id, centerId));
  const { claim } = await t.services.domains.state(center);
  if (!claim) throw new Error("no domain waits for proof");
  t.dns.records.set(claim.txt.name, [claim.txt.value]);
  const result = await t.services.domains.verify(center);
  if (!result.proven) throw new Error(`not proven: ${result.message}`);
  return claim.domain;
}
