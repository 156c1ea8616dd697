import { Link } from "react-router";
import { Briefcase, Clock, LifeBuoy, Mail, MapPin, MessageCircle, Phone, TrendingUp } from "lucide-react";
import type { Route } from "./+types/contact";
import { seo } from "~/lib/seo";
import { CONTACT, HOURS } from "~/lib/site-content";
import { Section, SectionHeading } from "~/components/marketing/section";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    matches,
    title: "Contact us",
    description:
      "Talk to Pathshala: email us (we reply within 24 hours), call Mon-Fri 9AM-6PM IST, or chat with us 24/7. Based in Kolkata, India.",
    path: "/contact",
  });

const CARDS = [
  { icon: Mail, title: "Email", value: CONTACT.email, href: `mailto:${CONTACT.email}`, note: HOURS.emailReply },
  { icon: Phone, title: "Phone", value: CONTACT.phone, href: CONTACT.phoneHref, note: HOURS.phone },
  { icon: MapPin, title: "Location", value: CONTACT.location, href: undefined, note: CONTACT.address },
  {
    icon: MessageCircle,
    title: "Live chat",
    value: "Chat on WhatsApp",
    href: CONTACT.whatsappHref,
    note: `Available ${HOURS.chat}`,
  },
];

const SUPPORT = [
  {
    icon: LifeBuoy,
    title: "Technical support",
    text: "Help with your website, domain, student logins, uploads or payments.",
    action: { label: CONTACT.email, href: `mailto:${CONTACT.email}` },
  },
  {
    icon: Briefcase,
    title: "Sales",
    text: "Plans for one branch or many, and a walk-through of the platform for your team.",
    action: { label: CONTACT.salesEmail, href: `mailto:${CONTACT.salesEmail}` },
  },
  {
    icon: TrendingUp,
    title: "Investors and partners",
    text: "Join our online investment seminar or write to us about partnerships.",
    action: { label: "Investor page", to: "/invest" },
  },
];

export default function Contact() {
  return (
    <>
      <Section className="bg-gradient-to-b from-primary/5 to-background">
        <SectionHeading eyebrow="Contact" title="We're here to help" as="h1">
          Questions about plans, your website or your students? Reach us the way that suits you.
        </SectionHeading>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
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
              <p className="mt-2 text-sm text-muted-foreground">{note}</p>
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
