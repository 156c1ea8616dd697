import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { PlanCard } from "./plan-card";
import { formatPrice, perPeriod, setupHref, type PricingPlan } from "~/lib/pricing";

const plan: PricingPlan = {
  id: "p1",
  name: "3 Year Plan",
  description: "Our most chosen plan.",
  currency: "INR",
  prices: { monthly: 7000, quarterly: 20000, yearly: 70000 },
  quarterlyMonths: 3,
  yearlyYears: 1,
  isPopular: true,
  features: ["From Control", "Home Page", "AI-Chatbot", "Live classes", "Certificates"].map((name) => ({
    name,
    included: true,
  })),
};

function render(p: PricingPlan, billing: "monthly" | "quarterly" | "yearly") {
  const Stub = createRoutesStub([{ path: "/", Component: () => <PlanCard plan={p} billing={billing} /> }]);
  return renderToStaticMarkup(<Stub initialEntries={["/"]} />);
}

describe("PlanCard", () => {
  it("shows the first three features then '+N more'", () => {
    const html = render(plan, "monthly");
    for (const name of ["From Control", "Home Page", "AI-Chatbot"]) expect(html).toContain(name);
    expect(html).not.toContain("Live classes");
    expect(html).toContain("+2 more");
    expect(html).toContain("Most Popular");
  });

  it("shows no '+N more' with three features or fewer, and no badge for other plans", () => {
    const html = render({ ...plan, isPopular: false, features: plan.features.slice(0, 3) }, "monthly");
    expect(html).not.toContain("more</li>");
    expect(html).not.toContain("Most Popular");
  });

  it("prices the chosen billing and links Get Started to the setup wizard", () => {
    const html = render(plan, "quarterly");
    expect(html).toContain("₹20,000");
    expect(html).toContain("/3 months");
    expect(html).toContain('href="/pricing/setup?plan=3%20Year%20Plan&amp;price=20000&amp;billing=quarterly"');
  });
});

describe("pricing helpers", () => {
  it("formats rupees with Indian grouping and names the period", () => {
    expect(formatPrice(100000)).toBe("₹1,00,000");
    expect(perPeriod(plan, "monthly")).toBe("/month");
    expect(perPeriod(plan, "yearly")).toBe("/year");
    expect(perPeriod({ quarterlyMonths: 3, yearlyYears: 2 }, "yearly")).toBe("/2 years");
    expect(setupHref(plan, "yearly")).toBe("/pricing/setup?plan=3%20Year%20Plan&price=70000&billing=yearly");
  });
});
