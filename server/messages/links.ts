import { workingHost } from "#common/domains.ts";

/** What a link to an institute needs: its bound custom domain, else its working address's slug. */
export interface LinkCenter {
  slug: string;
  /** Only ever a domain its owner has proven (domains are bound after proof). */
  customDomain: string | null;
}

/**
 * Every link the product writes into a message (decision 0028): built from the server's own
 * knowledge of where the account or institute lives, never from a request's Host or forwarded
 * headers. The platform is `PLATFORM_URL` (else its first host); an institute is its own domain,
 * else its working address `{slug}.{PLATFORM_DOMAIN}`, with the platform's scheme and port.
 * Without `PLATFORM_URL`, local hosts (the demo, the tests) are plain http on the server's port
 * and every other host is https.
 */
export class SiteLinks {
  private readonly platform: URL | null;
  private readonly platformHost: string;
  private readonly platformDomain: string;
  private readonly port: number;

  constructor(env: {
    PLATFORM_HOSTS: readonly string[];
    PLATFORM_DOMAIN: string;
    PORT: number;
    PLATFORM_URL?: string;
  }) {
    this.platform = env.PLATFORM_URL ? new URL(env.PLATFORM_URL) : null;
    this.platformHost = this.platform?.hostname ?? env.PLATFORM_HOSTS[0] ?? "localhost";
    this.platformDomain = env.PLATFORM_DOMAIN;
    this.port = env.PORT;
  }

  /** `path` on the institute's site (its students' sessions live there), or on the platform (null). */
  to(center: LinkCenter | null, path: string): string {
    return `${this.originOf(this.hostOf(center))}${path}`;
  }

  /** The host an institute is reached at (its own domain, else its working address), or the platform's. */
  hostOf(center: LinkCenter | null): string {
    return center?.customDomain ?? (center && workingHost(center.slug, this.platformDomain)) ?? this.platformHost;
  }

  private originOf(host: string): string {
    if (this.platform) return `${this.platform.protocol}//${host}${this.platform.port ? `:${this.platform.port}` : ""}`;
    const local = host === "localhost" || host.endsWith(".localhost") || /^[\d.]+$/.test(host);
    return local ? `http://${host}:${this.port}` : `https://${host}`;
  }
}
