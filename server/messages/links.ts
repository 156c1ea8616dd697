import { workingHost } from "../services/trials.ts";

/**
 * Addresses for links in messages that no request caused (the clock, a sweep): an institute's
 * own domain, or its working address `{slug}.{PLATFORM_DOMAIN}`, else the platform's. Local hosts
 * (the demo, the tests) are plain http on the server's port; every other host is https.
 */
export class SiteLinks {
  private readonly platformHost: string;
  private readonly platformDomain: string;
  private readonly port: number;

  constructor(env: { PLATFORM_HOSTS: readonly string[]; PLATFORM_DOMAIN: string; PORT: number }) {
    this.platformHost = env.PLATFORM_HOSTS[0] ?? "localhost";
    this.platformDomain = env.PLATFORM_DOMAIN;
    this.port = env.PORT;
  }

  /** `path` on the institute's site (its students' sessions live there), or on the platform. */
  to(center: { customDomain: string | null; slug: string } | null, path: string): string {
    const host = center?.customDomain ?? (center && workingHost(center.slug, this.platformDomain)) ?? this.platformHost;
    const local = host === "localhost" || host.endsWith(".localhost") || /^[\d.]+$/.test(host);
    return local ? `http://${host}:${this.port}${path}` : `https://${host}${path}`;
  }
}
