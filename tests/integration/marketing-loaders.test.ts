import { describe, expect, it, vi } from "vitest";
import { RouterContextProvider } from "react-router";
import { requestContext, type RequestContext } from "../../server/middleware/context.ts";
import { loadPricingPlans, requestOrigin } from "../../app/lib/marketing.server.ts";
import { loader as pricingLoader } from "../../app/routes/marketing/pricing.tsx";

function contextWith(partial: Partial<RequestContext>) {
  const provider = new RouterContextProvider();
  provider.set(requestContext, {
    requestId: "r1",
    auth: null,
    secure: false,
    meta: { ip: "1.2.3.4" },
    site: { kind: "platform", host: "localhost" },
    ...partial,
  } as RequestContext);
  return provider;
}

describe("loadPricingPlans", () => {
  it("shows the spec's static plans when the plan service fails", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const ctx = contextWith({
      services: { plans: { listActive: () => Promise.reject(new Error("database down")) } } as never,
    });
    const { plans, source } = await loadPricingPlans(ctx);
    expect(source).toBe("fallback");
    expect(plans.map((p) => [p.name, p.prices.monthly, p.prices.quarterly, p.prices.yearly, p.isPopular])).toEqual([
      ["1 Year Plan", 5000, 14000, 50000, false],
      ["3 Year Plan", 7000, 20000, 70000, true],
      ["5 Year Plan", 10000, 28000, 100000, false],
    ]);
    expect(plans[0].features.map((f) => f.name)).toEqual(["From Control", "Home Page", "AI-Chatbot"]);
  });

  it("says the page with the static plans may not be stored; the plans on sale may be", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const args = (listActive: () => Promise<unknown[]>) =>
      ({
        request: new Request("http://localhost/pricing"),
        params: {},
        context: contextWith({ services: { plans: { listActive } } as never }),
      }) as never;
    const fallback = await pricingLoader(args(() => Promise.reject(new Error("database down"))));
    expect(new Headers(fallback.init?.headers).get("cache-control")).toBe("no-store");
    const stored = await pricingLoader(args(() => Promise.resolve([])));
    expect(stored.init?.headers).toBeUndefined();
  });

  it("returns no plans (the page says so) when none are active", async () => {
    const ctx = contextWith({ services: { plans: { listActive: () => Promise.resolve([]) } } as never });
    expect(await loadPricingPlans(ctx)).toEqual({ plans: [], source: "database" });
  });
});

describe("requestOrigin", () => {
  it("keeps the port, and uses https behind TLS", () => {
    expect(requestOrigin(new Request("http://localhost:3000/x"), contextWith({}))).toBe("http://localhost:3000");
    expect(requestOrigin(new Request("http://localhost/x"), contextWith({ secure: true }))).toBe("https://localhost");
    // Behind a proxy the request URL may name an internal host: the resolved site's host wins.
    expect(
      requestOrigin(
        new Request("http://10.0.0.5:3000/x"),
        contextWith({ secure: true, site: { kind: "platform", host: "pathshala.in" } }),
      ),
    ).toBe("https://pathshala.in");
  });
});
