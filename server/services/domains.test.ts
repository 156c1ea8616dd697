import { describe, expect, it } from "vitest";
import { isPlatformAddress, relatedNames } from "./domains.ts";

describe("relatedNames", () => {
  it("is a domain, its twin and every parent with its twin: the bindings that decide who may have it", () => {
    expect(relatedNames("shop.sunrise.co.in").sort()).toEqual(
      [
        "shop.sunrise.co.in",
        "www.shop.sunrise.co.in",
        "sunrise.co.in",
        "www.sunrise.co.in",
        "co.in",
        "www.co.in",
      ].sort(),
    );
    expect(relatedNames("www.sunrise.in").sort()).toEqual(["sunrise.in", "www.sunrise.in"]);
    expect(relatedNames("sunrise.in").sort()).toEqual(["sunrise.in", "www.sunrise.in"]);
  });
});

describe("isPlatformAddress", () => {
  it("is the platform's hosts and every name under its domain", () => {
    const hosts = ["pathshala.in", "localhost"];
    for (const name of ["pathshala.in", "www.pathshala.in", "x.pathshala.in", "localhost"])
      expect(isPlatformAddress(name, hosts, "pathshala.in"), name).toBe(true);
    for (const name of ["mypathshala.in", "pathshala.in.example.com"])
      expect(isPlatformAddress(name, hosts, "pathshala.in"), name).toBe(false);
  });
});
