import { Link } from "react-router";
import { ArrowRight, Globe2, HeartHandshake, Lightbulb, ShieldCheck } from "lucide-react";
import type { Route } from "./+types/about";
import { seo } from "~/lib/seo";
import { STATS } from "~/lib/site-content";
import { buttonClasses } from "~/components/ui/button";
import { ABOUT_WIDTHS, ResponsiveImage } from "~/components/marketing/responsive-image";
import { Section, SectionHeading } from "~/components/marketing/section";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    matches,
    title: "About us",
    description:
      "Pathshala helps India's coaching institutes for JEE, NEET and Boards run their business online. Our story, our values and our team.",
    path: "/about",
  });

const VALUES = [
  {
    icon: Lightbulb,
    title: "Simplicity first",
    text: "An institute owner should be able to go online in an afternoon, without a developer.",
  },
  {
    icon: HeartHandshake,
    title: "Teachers at the centre",
    text: "We build for the people who teach: every feature starts from a real classroom problem.",
  },
  {
    icon: ShieldCheck,
    title: "Trust and privacy",
    text: "Students' data and institutes' payments are protected with care, and never sold.",
  },
  {
    icon: Globe2,
    title: "Reach every student",
    text: "From metro cities to small towns, learning should be one tap away on any phone.",
  },
];

const TEAM = [
  { name: "Arindam Sen", role: "Co-founder & CEO", initials: "AS" },
  { name: "Priyanka Roy", role: "Co-founder & Head of Product", initials: "PR" },
  { name: "Kunal Mehta", role: "Head of Engineering", initials: "KM" },
  { name: "Fatima Khan", role: "Head of Institute Success", initials: "FK" },
];

export default function About() {
  return (
    <>
      <Section className="bg-gradient-to-b from-primary/5 to-background">
        <div className="grid items-center gap-10 md:grid-cols-2">
          <div>
            <SectionHeading
              eyebrow="About Pathshala"
              title="Helping institutes teach beyond the classroom"
              as="h1"
              align="left"
            >
              We build the platform coaching institutes use to run their business online: a branded website, courses,
              live classes, students and payments.
            </SectionHeading>
          </div>
          <ResponsiveImage
            base="/images/about/about"
            widths={ABOUT_WIDTHS}
            sizes="(min-width: 768px) 480px, 100vw"
            width={960}
            height={720}
            alt="An open book beside a rising bar chart: learning that grows"
            eager
            className="h-auto w-full rounded-2xl border shadow-sm"
          />
        </div>
      </Section>

      <Section>
        <div className="grid gap-10 md:grid-cols-[1fr_1.4fr]">
          <SectionHeading eyebrow="Our story" title="From one classroom in Kolkata" align="left" />
          <div className="grid gap-4 text-muted-foreground">
            <p>
              Pathshala began when we watched a friend who ran a small JEE coaching centre spend his evenings answering
              fee reminders on WhatsApp, photocopying notes and turning away students from other towns. His teaching was
              excellent; the business around it was holding him back.
            </p>
            <p>
              We set out to give every institute the tools the biggest coaching brands have: a professional website on
              its own domain, online admissions and payments, recorded and live classes, and a simple dashboard to run
              it all. Today institutes preparing students for JEE, NEET and Boards launch on Pathshala in under 24
              hours.
            </p>
          </div>
        </div>
      </Section>

      <Section className="bg-muted/40">
        <SectionHeading eyebrow="Our values" title="What we stand for" />
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {VALUES.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-2xl border bg-card p-6 shadow-sm">
              <Icon className="size-6 text-primary" aria-hidden />
              <h3 className="mt-4 font-semibold">{title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{text}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section>
        <SectionHeading eyebrow="Our team" title="The people behind Pathshala" />
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {TEAM.map((person) => (
            <li key={person.name} className="rounded-2xl border bg-card p-6 text-center shadow-sm">
              <span
                className="mx-auto grid size-16 place-items-center rounded-full bg-primary/10 text-lg font-semibold text-primary"
                aria-hidden
              >
                {person.initials}
              </span>
              <h3 className="mt-4 font-semibold">{person.name}</h3>
              <p className="text-sm text-muted-foreground">{person.role}</p>
            </li>
          ))}
        </ul>
      </Section>

      <section aria-labelledby="impact-heading" className="bg-primary text-primary-foreground">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
          <h2 id="impact-heading" className="text-center text-2xl font-bold">
            Our impact
          </h2>
          <dl className="mt-8 grid grid-cols-2 gap-8 text-center md:grid-cols-4">
            {STATS.map((stat) => (
              <div key={stat.label} className="flex flex-col">
                <dt className="text-sm font-medium opacity-90">{stat.label}</dt>
                <dd className="order-first text-3xl font-bold">{stat.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <Section>
        <div className="text-center">
          <h2 className="text-3xl font-bold tracking-tight">Bring your institute online</h2>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Link to="/get-started" className={buttonClasses("default", "lg")}>
              Start Free Trial <ArrowRight className="size-4" aria-hidden />
            </Link>
            <Link to="/contact" className={buttonClasses("outline", "lg")}>
              Contact us
            </Link>
          </div>
        </div>
      </Section>
    </>
  );
}
