import { Link } from "react-router";
import { Logo } from "~/components/shell/logo";
import type { PlatformContacts } from "#common/platform-contacts.ts";

const COLUMNS: { title: string; links: { to: string; label: string }[] }[] = [
  {
    title: "Product",
    links: [
      { to: "/#features", label: "Features" },
      { to: "/pricing", label: "Pricing" },
      { to: "/catalog", label: "Catalog" },
      { to: "/get-started", label: "Get Started" },
    ],
  },
  {
    title: "Company",
    links: [
      { to: "/about", label: "About Us" },
      { to: "/contact", label: "Contact" },
      { to: "/invest", label: "Investors" },
    ],
  },
  {
    title: "Legal",
    links: [
      { to: "/legal#privacy", label: "Privacy Policy" },
      { to: "/legal#terms", label: "Terms of Service" },
      { to: "/legal#cookies", label: "Cookie Policy" },
    ],
  },
];

/** The marketing pages' footer: columns Product, Company and Legal (spec §2). */
export function SiteFooter({ year, contacts }: { year: number; contacts: PlatformContacts }) {
  return (
    <footer className="border-t bg-muted/40">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[1.5fr_repeat(3,1fr)]">
        <div>
          <Logo />
          <p className="mt-3 max-w-xs text-sm text-muted-foreground">
            The all-in-one platform for coaching institutes: courses, students, payments and your own branded website.
          </p>
          {/* Only the address Platform Settings give: none is made up (issue 38 §6). */}
          {contacts.email && (
            <p className="mt-3 text-sm text-muted-foreground">
              <a href={`mailto:${contacts.email}`} className="hover:text-foreground hover:underline">
                {contacts.email}
              </a>
            </p>
          )}
        </div>
        {COLUMNS.map((column) => (
          <nav key={column.title} aria-label={column.title}>
            <h2 className="text-sm font-semibold">{column.title}</h2>
            <ul className="mt-3 grid gap-2 text-sm">
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="text-muted-foreground hover:text-foreground hover:underline">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t">
        <p className="mx-auto max-w-6xl px-4 py-5 text-sm text-muted-foreground sm:px-6">
          © {year} Pathshala. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
