import { describe, expect, it } from "vitest";
import { EnvError, normaliseHost, parseEnv } from "./env.ts";

describe("parseEnv", () => {
  it("applies the documented defaults", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.HOST).toBe("0.0.0.0");
    expect(env.DATA_DIR).toBe("./data");
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.PLATFORM_HOSTS).toEqual(["localhost", "127.0.0.1"]);
    expect(env.SEED_DEMO).toBe(true);
    expect(env.TRUST_PROXY).toBe(false);
  });

  it("names the variable and the value in one line when a value is wrong", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(EnvError);
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(
      'Invalid environment variable PORT: must be a port number from 1 to 65535 (got "eighty")',
    );
    expect(() => parseEnv({ PORT: "70000" })).toThrow(/PORT/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(
      "Invalid environment variable DATABASE_URL: must be a postgres:// or postgresql:// URL",
    );
    expect(() => parseEnv({ SEED_DEMO: "maybe" })).toThrow(/SEED_DEMO/);
    expect(() => parseEnv({ PLATFORM_HOSTS: "ok.com,bad host" })).toThrow(/PLATFORM_HOSTS/);
  });

  it("reads flags and lists", () => {
    const env = parseEnv({ SEED_DEMO: "0", TRUST_PROXY: "yes", PLATFORM_HOSTS: "Pathshala.IN, www.pathshala.in." });
    expect(env.SEED_DEMO).toBe(false);
    expect(env.TRUST_PROXY).toBe(true);
    expect(env.PLATFORM_HOSTS).toEqual(["pathshala.in", "www.pathshala.in"]);
  });
});

describe("PLATFORM_URL", () => {
  it("is an http(s) origin on one of the platform's hosts", () => {
    expect(parseEnv({}).PLATFORM_URL).toBeUndefined();
    expect(parseEnv({ PLATFORM_HOSTS: "pathshala.in", PLATFORM_URL: "https://Pathshala.in/" }).PLATFORM_URL).toBe(
      "https://pathshala.in",
    );
    expect(() => parseEnv({ PLATFORM_URL: "ftp://localhost" })).toThrow(
      'Invalid environment variable PLATFORM_URL: must be an http(s) address with no path, such as https://pathshala.in (got "ftp://localhost")',
    );
    expect(() => parseEnv({ PLATFORM_URL: "https://localhost/app" })).toThrow(/PLATFORM_URL/);
    expect(() => parseEnv({ PLATFORM_HOSTS: "pathshala.in", PLATFORM_URL: "https://evil.example" })).toThrow(
      'Invalid environment variable PLATFORM_URL: must name one of PLATFORM_HOSTS (got "https://evil.example")',
    );
  });
});

describe("normaliseHost", () => {
  it("lower-cases and drops the port and trailing dot", () => {
    expect(normaliseHost("Acme.EXAMPLE.com.:8443")).toBe("acme.example.com");
    expect(normaliseHost("[::1]:3000")).toBe("[::1]");
  });
});
