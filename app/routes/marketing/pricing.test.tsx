import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import Pricing from "./pricing";

function render(plans: unknown[]) {
  const loaderData = { plans, source: "database", billing: "monthly" };
  const props = { loaderData } as unknown as Parameters<typeof Pricing>[0];
  const Stub = createRoutesStub([{ path: "/pricing", Component: () => <Pricing {...props} /> }]);
  return renderToStaticMarkup(<Stub initialEntries={["/pricing"]} />);
}

describe("/pricing", () => {
  it("says so when there are no plans", () => {
    expect(render([])).toContain("No pricing plans available at the moment.");
  });

  it("offers the three billing tabs, the trial and sales links", () => {
    const html = render([]);
    for (const label of ["Monthly", "3 months", "Yearly"]) expect(html).toContain(`>${label}</button>`);
    expect(html).toContain('href="/pricing/setup?trial=1"');
    expect(html).toContain(">Start Free Trial<");
    expect(html).toContain('href="/contact"');
    expect(html).toContain(">Contact Sales<");
    expect(html).toContain("14-day free trial");
  });
});
