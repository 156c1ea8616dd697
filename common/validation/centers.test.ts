import { describe, expect, it } from "vitest";
import * as v from "valibot";
import {
  centerFieldErrors,
  daysLeft,
  expiryLabel,
  ExtendCenterSchema,
  goUrl,
  SubCenterSchema,
  reachableWebsite,
} from "./centers";

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 21, 12);

describe("expiryLabel (spec §4: 'N days left' rounded up, or 'Expired')", () => {
  it("rounds part of a day up", () => {
    expect(expiryLabel(new Date(now + 2 * DAY + 1), now)).toBe("3 days left");
    expect(expiryLabel(new Date(now + 30 * DAY), now)).toBe("30 days left");
    expect(expiryLabel(new Date(now + 1000), now)).toBe("1 day left");
  });
  it("says Expired at and after the moment of expiry, and nothing without an expiry", () => {
    expect(expiryLabel(new Date(now), now)).toBe("Expired");
    expect(expiryLabel(new Date(now - DAY).toISOString(), now)).toBe("Expired");
    expect(expiryLabel(null, now)).toBeNull();
    expect(daysLeft(new Date(now - DAY), now)).toBe(0);
    expect(daysLeft(new Date(now + 1.5 * DAY), now)).toBe(2);
  });
});

describe("the sub center schema (spec §5)", () => {
  const ok = {
    name: "Salt Lake Branch",
    domain: "saltlake.example.in",
    website: "https://saltlake.example.in/",
    superAdminPath: "/admin/",
  };
  it("normalises what it accepts", () => {
    expect(v.parse(SubCenterSchema, { ...ok, domain: " HTTPS://SaltLake.Example.IN/x " })).toEqual({
      name: "Salt Lake Branch",
      domain: "saltlake.example.in",
      website: "https://saltlake.example.in",
      superAdminPath: "/admin",
    });
  });
  it("gives one message per field, the spec's", () => {
    expect(centerFieldErrors({ name: "A", domain: "nope", website: "example", superAdminPath: "admin" })).toEqual({
      name: "Sub center name must be at least 2 characters",
      domain: "Please enter a valid domain (e.g., yourinstitute.com)",
      website: "Please enter a valid URL",
      superAdminPath: "Path must start with /",
    });
    expect(centerFieldErrors({})).toEqual({
      name: "Sub center name is required",
      domain: "Domain name is required",
      website: "Website is required",
      superAdminPath: "Super Admin Path is required",
    });
    expect(centerFieldErrors(ok)).toEqual({});
  });
  it("keeps the site's own pages free", () => {
    for (const path of ["/", "/auth", "/business", "/business/x", "/student", "/api", "/media/a", "/_site"]) {
      expect(centerFieldErrors({ ...ok, superAdminPath: path }).superAdminPath, path).toMatch(
        /already used by the institute's website/,
      );
    }
    expect(centerFieldErrors({ ...ok, superAdminPath: "/staff-login" })).toEqual({});
  });
});

describe("extend and Go", () => {
  it("takes whole days from 1 to 3650, as a number or text", () => {
    expect(v.parse(ExtendCenterSchema, { days: "90" })).toEqual({ days: 90 });
    for (const days of [0, 3651, 1.5, "", "x", null])
      expect(v.safeParse(ExtendCenterSchema, { days }).success, String(days)).toBe(false);
  });
  it("opens the website at the super admin path", () => {
    expect(goUrl({ website: "https://a.example.com/", domain: "a.example.com", superAdminPath: "/admin" })).toBe(
      "https://a.example.com/admin",
    );
    expect(goUrl({ website: null, domain: "b.example.com", superAdminPath: "/staff" })).toBe(
      "https://b.example.com/staff",
    );
    expect(goUrl({ website: null, domain: null, superAdminPath: "/admin" })).toBeNull();
  });
});

describe("a center's website in the Center List", () => {
  it("opens a .localhost site on the port the admin is using", () => {
    expect(reachableWebsite("http://demo-t1.localhost:3000", "http://localhost:3317/dashboard/centers")).toBe(
      "http://demo-t1.localhost:3317",
    );
    expect(reachableWebsite("http://demo-t1.localhost", "http://localhost:3000/dashboard/centers")).toBe(
      "http://demo-t1.localhost:3000",
    );
  });

  it("leaves every other website as it was stored", () => {
    expect(reachableWebsite("https://sunrise.in", "http://localhost:3317/")).toBe("https://sunrise.in");
    expect(reachableWebsite(null, "http://localhost:3317/")).toBe(null);
  });
});
