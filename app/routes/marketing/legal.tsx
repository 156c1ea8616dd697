import { Link } from "react-router";
import type { Route } from "./+types/legal";
import { seo } from "~/lib/seo";
import { usePlatformContacts } from "~/lib/platform-contacts";
import { Section, SectionHeading } from "~/components/marketing/section";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    matches,
    title: "Privacy, terms and cookies",
    description: "How Pathshala handles your data, the terms of using the platform, and the cookies it sets.",
    path: "/legal",
  });

/** The cookies this site really sets, and why (kept in step with the code that sets them). */
const COOKIES = [
  {
    name: "pathshala_session",
    purpose: "Keeps you signed in. Set only when you sign in; removed when you log out.",
    lifetime: "Browser session; with 'Remember me', 30 days after your last visit",
  },
  { name: "pathshala_theme", purpose: "Remembers the light, dark or system theme you chose.", lifetime: "1 year" },
  {
    name: "pathshala_cookie_consent",
    purpose: "Remembers that you accepted cookies, so we do not ask again.",
    lifetime: "1 year",
  },
  {
    name: "sidebar_state",
    purpose: "Remembers whether your dashboard sidebar is open or collapsed.",
    lifetime: "7 days",
  },
  { name: "pathshala_toast", purpose: "Carries a short confirmation message to the next page.", lifetime: "1 minute" },
];

function Block({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-24">
      <h2 id={`${id}-title`} className="text-2xl font-bold tracking-tight">
        {title}
      </h2>
      <div className="mt-4 grid gap-3 leading-relaxed text-muted-foreground">{children}</div>
    </section>
  );
}

export default function Legal() {
  const contacts = usePlatformContacts();
  return (
    <Section>
      <div className="mx-auto grid max-w-3xl gap-14">
        <SectionHeading eyebrow="Legal" title="Privacy, terms and cookies" as="h1" align="left">
          The short, plain version of how Pathshala works with your information.
        </SectionHeading>

        <Block id="privacy" title="Privacy Policy">
          <p>
            We collect what we need to run the service: your name, email address and role when you create an account;
            your institute's details and domain when you buy a plan; the details you enter when you register for our
            investment seminar; and records of purchases and enrolments.
          </p>
          <p>
            Payments are handled by our payment gateway; we never see or store your card details. Passwords are stored
            only as strong one-way hashes. We do not sell personal data. Institutes can see the students enrolled with
            them; creators can see sales of their own content.
          </p>
          <p>
            To see, correct or delete your data,{" "}
            {contacts.email ? (
              <>
                write to{" "}
                <a href={`mailto:${contacts.email}`} className="font-medium text-primary hover:underline">
                  {contacts.email}
                </a>
                .
              </>
            ) : (
              <>
                <Link to="/contact" className="font-medium text-primary hover:underline">
                  contact us
                </Link>
                .
              </>
            )}
          </p>
        </Block>

        <Block id="terms" title="Terms of Service">
          <p>
            Institutes are responsible for the content they publish and the courses they sell on their sites; creators
            must own the rights to what they upload. Plans are billed for the period chosen at checkout, and every plan
            starts with a 14-day free trial.
          </p>
          <p>
            We may suspend a site that breaks the law or these terms. Paid plans come with a 30-day money-back
            guarantee: write to us within 30 days of paying for a full refund.
          </p>
        </Block>

        <Block id="cookies" title="Cookie Policy">
          <p>
            We use only the cookies the site needs to work and to remember your choices. We use no advertising or
            tracking cookies.
          </p>
          <div className="overflow-x-auto rounded-xl border">
            <table className="w-full text-left text-sm">
              <thead className="bg-muted/60 text-foreground">
                <tr>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Cookie
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Why
                  </th>
                  <th scope="col" className="px-4 py-3 font-medium">
                    Kept for
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {COOKIES.map((c) => (
                  <tr key={c.name}>
                    <td className="px-4 py-3 font-mono text-xs text-foreground">{c.name}</td>
                    <td className="px-4 py-3">{c.purpose}</td>
                    <td className="px-4 py-3">{c.lifetime}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </Block>
      </div>
    </Section>
  );
}
