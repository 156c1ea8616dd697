import { describe, expect, it } from "vitest";
import { SiteLinks } from "./links.ts";
import { parseEnv } from "../runtime/env.ts";

const links = (env: Record<string, string>) => new SiteLinks(parseEnv(env));
const sunrise = { slug: "sunrise", customDomain: null };
const bound = { slug: "sunrise", customDomain: "sunrise.edu.in" };

describe("links in messages", () => {
  it("lead to the platform's configured address, whatever host a request came to", () => {
    const live = links({ PLATFORM_HOSTS: "pathshala.in,www.pathshala.in", PLATFORM_DOMAIN: "pathshala.in" });
    expect(live.to(null, "/reset-password?token=abc")).toBe("https://pathshala.in/reset-password?token=abc");
    expect(links({}).to(null, "/invite/abc")).toBe("http://localhost:3000/invite/abc");
    expect(links({ PORT: "4123" }).to(null, "/x")).toBe("http://localhost:4123/x");
  });

  it("lead to an institute's bound domain, else its working address", () => {
    const live = links({ PLATFORM_HOSTS: "pathshala.in", PLATFORM_DOMAIN: "pathshala.in" });
    expect(live.to(sunrise, "/student/live")).toBe("https://sunrise.pathshala.in/student/live");
    expect(live.to(bound, "/student/live")).toBe("https://sunrise.edu.in/student/live");
    expect(live.hostOf(bound)).toBe("sunrise.edu.in");
    expect(links({}).to(sunrise, "/x")).toBe("http://sunrise.localhost:3000/x");
  });

  it("follow PLATFORM_URL's scheme and port, for the platform and its institutes", () => {
    const staging = links({
      PLATFORM_HOSTS: "staging.example.org",
      PLATFORM_DOMAIN: "staging.example.org",
      PLATFORM_URL: "http://staging.example.org:8080",
    });
    expect(staging.to(null, "/forgot-password")).toBe("http://staging.example.org:8080/forgot-password");
    expect(staging.to(sunrise, "/x")).toBe("http://sunrise.staging.example.org:8080/x");
    expect(staging.to(bound, "/x")).toBe("http://sunrise.edu.in:8080/x");
    const live = links({ PLATFORM_HOSTS: "pathshala.in", PLATFORM_URL: "https://pathshala.in/" });
    expect(live.to(null, "/x")).toBe("https://pathshala.in/x");
  });
});
