import { describe, expect, it, vi } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import type { PlatformContacts } from "#common/platform-contacts.ts";
import { SiteFooter } from "~/components/marketing/site-footer";

let contacts: PlatformContacts;
vi.mock("~/lib/platform-contacts", () => ({ usePlatformContacts: () => contacts }));
const { default: Contact } = await import("./contact");

const NONE: PlatformContacts = { email: null, phone: null, chatUrl: null, legalName: null, address: null };

function render(node: React.ReactNode) {
  const Stub = createRoutesStub([{ path: "/contact", Component: () => node }]);
  return renderToStaticMarkup(<Stub initialEntries={["/contact"]} />);
}
const page = () => render(<Contact />);

describe("/contact and the footer (issue 38 §6)", () => {
  it("show the contacts of Platform Settings", () => {
    contacts = {
      email: "help@example.org",
      phone: "+91 98765 43210",
      chatUrl: "https://chat.example.org/pathshala",
      legalName: "Example Learning Pvt Ltd",
      address: "12 Park Street, Kolkata 700016",
    };
    const html = page();
    expect(html).toContain('href="mailto:help@example.org"');
    expect(html).toContain('href="tel:+919876543210"');
    expect(html).toContain(">+91 98765 43210<");
    expect(html).toContain('href="https://chat.example.org/pathshala"');
    expect(html).toContain("12 Park Street, Kolkata 700016");
    expect(html).toContain("Kolkata, India");
    expect(html).toContain("Mon-Fri 9AM-6PM IST");
    const footer = render(<SiteFooter year={2026} contacts={contacts} />);
    expect(footer).toContain('href="mailto:help@example.org"');
  });

  it("invent nothing when none is set: no e-mail, phone or chat card, no address", () => {
    contacts = NONE;
    const html = page();
    for (const invented of ["pathshala.in", "4050 6070", "wa.me", "Salt Lake", "mailto:", "tel:"]) {
      expect(html).not.toContain(invented);
    }
    expect(html).not.toContain(">Email</h2>");
    expect(html).not.toContain(">Phone</h2>");
    expect(html).not.toContain(">Live chat</h2>");
    expect(html).toContain(">Location</h2>");
    const footer = render(<SiteFooter year={2026} contacts={NONE} />);
    expect(footer).not.toContain("mailto:");
  });
});
