import { describe, expect, it } from "vitest";
import { instituteBrand } from "./branding.ts";

const links = { hostOf: (c: { slug: string } | null) => `${c?.slug}.pathshala.example` };

describe("instituteBrand", () => {
  it("names the institute as its own, carried by the platform", () => {
    const brand = instituteBrand({ slug: "sunrise", customDomain: null, name: "Sunrise Academy" }, links);
    expect(brand.name).toBe("Sunrise Academy");
    expect(brand.sender).toBe("Sunrise Academy via Pathshala");
  });

  it("takes web addresses out of the name, in the sender too", () => {
    const brand = instituteBrand({ slug: "sunrise", customDomain: null, name: "Sunrise Academy evil.com" }, links);
    expect(brand.name).toBe("Sunrise Academy");
    expect(brand.sender).toBe("Sunrise Academy via Pathshala");
  });

  it("shows a name that reads as the platform's, or nothing but an address, as the institute's address", () => {
    expect(instituteBrand({ slug: "sunrise", customDomain: null, name: "Pathshala Support" }, links).name).toBe(
      "sunrise.pathshala.example",
    );
    expect(instituteBrand({ slug: "sunrise", customDomain: null, name: "https://evil.com" }, links).name).toBe(
      "sunrise.pathshala.example",
    );
  });
});
