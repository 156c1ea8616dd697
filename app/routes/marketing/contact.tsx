import { Link } from "react-router";
import { Briefcase, Clock, LifeBuoy, Mail, MapPin, MessageCircle, Phone, TrendingUp } from "lucide-react";
import type { Route } from "./+types/contact";
import { seo } from "~/lib/seo";
import { HOURS, LOCATION } from "~/lib/site-content";
import { usePlatformContacts } from "~/lib/platform-contacts";
import { telHref, type PlatformContacts } from "#common/platform-contacts.ts";
import { Section, SectionHeading } from "~/components/marketing/section";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    matches,
    title: "Contact us",
    description:
      "Talk to Pathshala: email us (we reply within 24 hours), call Mon-Fri 9AM-6PM IST, or chat with us 24/7. Based in Kolkata, India.",
    path: "/contact",
  });

type Card = { icon: typeof Mail; title: string; value: string; href?: string; note: string };
type Support = {
  icon: typeof Mail;
  title: string;
  text: string;
  action: { label: string; href?: string; to?: string };
};

/** The cards for what Platform Settings give: a contact that is not set is not shown (never made up). */
function cards(c: PlatformContacts): Card[] {
  const list: Card[] = [];
  if (c.email)
    list.push({ icon: Mail, title: "Email", value: c.email, href: `mailto:${c.email}`, note: HOURS.emailReply });
  if (c.phone) list.push({ icon: Phone, title: "Phone", value: c.phone, href: telHref(c.phone), note: HOURS.phone });
  list.push({ icon: MapPin, title: "Location", value: LOCATION, note: c.address ?? "" });
  if (c.chatUrl) {
    list.push({
      icon: MessageCircle,
      title: "Live chat",
      value: "Chat with us",
      href: c.chatUrl,
      note: `Available ${HOURS.chat}`,
    });
  }
  return list;
}

function support(c: PlatformContacts): Support[] {
  const mail = c.email ? { label: c.email, href: `mailto:${c.email}` } : { label: "Contact us", to: "/contact#main" };
  return [
    {
      icon: LifeBuoy,
      title: "Technical support",
      text: "Help with your website, domain, student logins, uploads or payments.",
      action: mail,
    },
    {
      icon: Briefcase,
      title: "Sales",
      text: "Plans for one branch or many, and a walk-through of the platform for your team.",
      action: mail,
    },
    {
      icon: TrendingUp,
      title: "Investors and partners",
      text: "Join our online investment seminar or write to us about partnerships.",
      action: { label: "Investor page", to: "/invest" },
    },
  ];
}

export default function Contact() {
  const contacts = usePlatformContacts();
  const CARDS = cards(contacts);
  const SUPPORT = support(contacts);
  return (
    <>
      <Section className="bg-gradient-to-b from-primary/5 to-background">
        <SectionHeading eyebrow="Contact" title="We're here to help" as="h1">
          Questions about plans, your website or your students? Reach us the way that suits you.
        </SectionHeading>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4" data-testid="contact-cards">
          {CARDS.map(({ icon: Icon, title, value, href, note }) => (
            <li key={title} className="rounded-2xl border bg-card p-6 shadow-sm">
              <span className="grid size-11 place-items-center rounded-xl bg-primary/10 text-primary">
                <Icon className="size-5" aria-hidden />
              </span>
              <h2 className="mt-4 font-semibold">{title}</h2>
              {href ? (
                <a
                  href={href}
                  className="mt-1 block break-words font-medium text-primary hover:underline"
                  {...(href.startsWith("http") ? { target: "_blank", rel: "noopener noreferrer" } : {})}
                >
                  {value}
                </a>
              ) : (
                <p className="mt-1 font-medium">{value}</p>
              )}
              {note && <p className="mt-2 text-sm text-muted-foreground">{note}</p>}
            </li>
          ))}
        </ul>
      </Section>

      <Section>
        <SectionHeading eyebrow="Support options" title="Who would you like to talk to?" />
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {SUPPORT.map(({ icon: Icon, title, text, action }) => (
            <li key={title} className="flex flex-col rounded-2xl border bg-card p-6 shadow-sm">
              <Icon className="size-6 text-primary" aria-hidden />
              <h3 className="mt-4 font-semibold">{title}</h3>
              <p className="mt-2 flex-1 text-sm text-muted-foreground">{text}</p>
              {"to" in action && action.to ? (
                <Link to={action.to} className="mt-4 font-medium text-primary hover:underline">
                  {action.label}
                </Link>
              ) : (
                <a href={action.href} className="mt-4 break-words font-medium text-primary hover:underline">
                  {action.label}
                </a>
              )}
            </li>
          ))}
        </ul>
      </Section>

      <Section className="bg-muted/40">
        <div className="mx-auto max-w-3xl">
          <SectionHeading eyebrow="Hours" title="When we're available" />
          <dl className="mt-10 divide-y rounded-2xl border bg-card">
            {[
              ["Phone support", HOURS.phone],
              ["Live chat", HOURS.chat],
              ["Email", `${HOURS.email} · ${HOURS.emailReply.toLowerCase()}`],
              ["Sales", HOURS.sales.join(" · ")],
            ].map(([label, value]) => (
              <div key={label} className="flex flex-wrap items-center justify-between gap-2 px-6 py-4">
                <dt className="inline-flex items-center gap-2 font-medium">
                  <Clock className="size-4 text-primary" aria-hidden /> {label}
                </dt>
                <dd className="text-muted-foreground">{value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </Section>
    </>
  );
}
