import { Link } from "react-router";
import {
  ArrowRight,
  Award,
  BarChart3,
  BookOpen,
  Clock,
  CreditCard,
  LayoutDashboard,
  Mail,
  Megaphone,
  MessageCircle,
  Palette,
  Phone,
  ShieldCheck,
  Star,
  Users,
  Video,
} from "lucide-react";
import type { Route } from "./+types/home";
import { seo } from "~/lib/seo";
import { HOURS, STATS } from "~/lib/site-content";
import { usePlatformContacts } from "~/lib/platform-contacts";
import { telHref } from "#common/platform-contacts.ts";
import { buttonClasses } from "~/components/ui/button";
import { Hero } from "~/components/marketing/hero";
import { Faq, type FaqItem } from "~/components/marketing/faq";
import { ABOUT_WIDTHS, ResponsiveImage } from "~/components/marketing/responsive-image";
import { Section, SectionHeading } from "~/components/marketing/section";
import { TRIAL_START_PATH } from "#common/trial.ts";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    matches,
    title: "Pathshala: the all-in-one platform for coaching institutes",
    description:
      "Launch your coaching institute online in under 24 hours: a branded website on your own domain, courses, live classes, student management and payments for JEE, NEET and Boards.",
    path: "/",
  });

const STRIP = [
  { icon: Clock, text: "Launch in under 24 hours" },
  { icon: Palette, text: "White-label branding" },
  { icon: CreditCard, text: "Payments built in" },
  { icon: Video, text: "Live classes" },
  { icon: ShieldCheck, text: "99.9% uptime" },
];

const FEATURES = [
  {
    icon: BookOpen,
    title: "Course Management",
    text: "Publish PDFs, recorded video courses and live classes, priced your way, organised by batch and subject.",
  },
  {
    icon: Users,
    title: "Student Management",
    text: "Enrolments, access and progress in one place. Students sign in on your own domain and find everything they bought.",
  },
  {
    icon: Megaphone,
    title: "Marketing Tools",
    text: "Reach students and parents by email, SMS and WhatsApp, and turn website enquiries into admissions.",
  },
  {
    icon: BarChart3,
    title: "Analytics",
    text: "See sales, enrolments and your best-performing courses at a glance, and grow what works.",
  },
  {
    icon: Award,
    title: "Certificates",
    text: "Reward completion with certificates that carry your institute's name and brand.",
  },
  {
    icon: LayoutDashboard,
    title: "Dashboard",
    text: "One dashboard for your plan, website template, content creators and billing history.",
  },
];

const TESTIMONIALS = [
  {
    quote:
      "We went from a WhatsApp group to a proper website with online fees in a single day. Admissions for our JEE batch doubled this season.",
    name: "Rakesh Gupta",
    role: "Director, Gupta JEE Classes, Patna",
  },
  {
    quote:
      "Our NEET students watch recorded lectures and join live doubt sessions from the same login. Parents love how professional it looks.",
    name: "Dr. Meera Iyer",
    role: "Founder, Iyer Biology Academy, Chennai",
  },
  {
    quote:
      "Selling my Class 12 physics notes used to mean printing and couriers. Now students pay online and download instantly.",
    name: "Sourav Banerjee",
    role: "Physics educator, Kolkata",
  },
];

export const LANDING_FAQ: FaqItem[] = [
  {
    question: "How quickly can my institute go live?",
    answer:
      "Most institutes are live in under 24 hours: choose a plan, enter your institute's details, pay securely and pick a website template. Your site is ready on your domain right away.",
  },
  {
    question: "Do I need any technical knowledge?",
    answer:
      "No. You fill in a short form and choose a template; we host the website, the student logins and the payments for you.",
  },
  {
    question: "Can I use my own domain name?",
    answer:
      "Yes. Your institute's website runs on your own domain with your name and colours, so students only ever see your brand.",
  },
  {
    question: "How do students pay for courses?",
    answer:
      "Students pay online by card, UPI or net banking through a secure payment gateway, and get access the moment their payment is confirmed.",
  },
  {
    question: "Is there a free trial?",
    answer:
      "Every plan starts with a 14-day free trial and there is no setup fee. You do not need a credit card to start.",
  },
  {
    question: "Can teachers and creators sell their content through my institute?",
    answer:
      "Yes. Creators upload PDFs, videos and live classes and assign them to your institute; your students see them in your catalogue.",
  },
];

function Stars() {
  return (
    <div className="flex gap-0.5 text-amber-500" role="img" aria-label="5 out of 5 stars">
      {Array.from({ length: 5 }, (_, i) => (
        <Star key={i} className="size-4 fill-current" aria-hidden />
      ))}
    </div>
  );
}

export default function Landing() {
  const contacts = usePlatformContacts();
  return (
    <>
      <Hero />

      <section aria-label="Highlights" className="border-b bg-card">
        <ul className="mx-auto flex max-w-6xl flex-wrap items-center justify-center gap-x-8 gap-y-3 px-4 py-5 text-sm font-medium text-muted-foreground sm:px-6">
          {STRIP.map(({ icon: Icon, text }) => (
            <li key={text} className="inline-flex items-center gap-2">
              <Icon className="size-4 text-primary" aria-hidden /> {text}
            </li>
          ))}
        </ul>
      </section>

      <Section id="features">
        <SectionHeading eyebrow="Features" title="Everything your institute needs to teach and grow online">
          Built for coaching institutes preparing students for JEE, NEET and Boards.
        </SectionHeading>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-2xl border bg-card p-6 shadow-sm">
              <span className="grid size-11 place-items-center rounded-xl bg-primary/10 text-primary">
                <Icon className="size-5" aria-hidden />
              </span>
              <h3 className="mt-4 text-lg font-semibold">{title}</h3>
              <p className="mt-2 text-sm leading-relaxed text-muted-foreground">{text}</p>
            </li>
          ))}
        </ul>
      </Section>

      <section aria-labelledby="stats-heading" className="bg-primary text-primary-foreground">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
          <h2 id="stats-heading" className="sr-only">
            Pathshala in numbers
          </h2>
          <dl className="grid grid-cols-2 gap-8 text-center md:grid-cols-4">
            {STATS.map((stat) => (
              <div key={stat.label} className="flex flex-col">
                <dt className="text-sm font-medium opacity-90">{stat.label}</dt>
                <dd className="order-first text-3xl font-bold tracking-tight md:text-4xl">{stat.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </section>

      <Section id="testimonials" className="bg-muted/40">
        <SectionHeading eyebrow="Testimonials" title="Loved by institutes and educators" />
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {TESTIMONIALS.map((t) => (
            <li key={t.name}>
              <figure className="flex h-full flex-col rounded-2xl border bg-card p-6 shadow-sm">
                <Stars />
                <blockquote className="mt-4 flex-1 text-sm leading-relaxed">“{t.quote}”</blockquote>
                <figcaption className="mt-6">
                  <p className="font-semibold">{t.name}</p>
                  <p className="text-sm text-muted-foreground">{t.role}</p>
                </figcaption>
              </figure>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="about">
        <div className="grid items-center gap-10 md:grid-cols-2">
          <div>
            <SectionHeading eyebrow="About us" title="Built in Kolkata for India's coaching institutes" align="left">
              Pathshala started with a simple idea: every institute, from a single classroom to a multi-city brand,
              deserves its own professional online presence without hiring a tech team.
            </SectionHeading>
            <Link to="/about" className={buttonClasses("outline", "md", "mt-8")}>
              Learn more about us <ArrowRight className="size-4" aria-hidden />
            </Link>
          </div>
          <ResponsiveImage
            base="/images/about/about"
            widths={ABOUT_WIDTHS}
            sizes="(min-width: 768px) 480px, 100vw"
            width={960}
            height={720}
            alt="An open book beside a rising bar chart: learning that grows"
            className="h-auto w-full rounded-2xl border shadow-sm"
          />
        </div>
      </Section>

      <Section id="faq" className="bg-muted/40">
        <SectionHeading eyebrow="FAQ" title="Frequently asked questions" />
        <Faq items={LANDING_FAQ} className="mx-auto mt-10 max-w-3xl" />
      </Section>

      <Section id="contact">
        <div className="grid gap-8 rounded-3xl border bg-card p-8 shadow-sm md:grid-cols-[1.2fr_1fr] md:p-12">
          <div>
            <SectionHeading eyebrow="Contact" title="Questions? Talk to a person." align="left">
              {HOURS.emailReply}. Call us {HOURS.phone}, or chat with us any time.
            </SectionHeading>
            <Link to="/contact" className={buttonClasses("default", "md", "mt-8")}>
              Contact us <ArrowRight className="size-4" aria-hidden />
            </Link>
          </div>
          <ul className="grid content-center gap-4 text-sm">
            {contacts.email && (
              <li className="flex items-center gap-3">
                <Mail className="size-5 text-primary" aria-hidden />
                <a href={`mailto:${contacts.email}`} className="font-medium hover:underline">
                  {contacts.email}
                </a>
              </li>
            )}
            {contacts.phone && (
              <li className="flex items-center gap-3">
                <Phone className="size-5 text-primary" aria-hidden />
                <a href={telHref(contacts.phone)} className="font-medium hover:underline">
                  {contacts.phone}
                </a>
              </li>
            )}
            <li className="flex items-center gap-3">
              <MessageCircle className="size-5 text-primary" aria-hidden /> Live chat {HOURS.chat}
            </li>
          </ul>
        </div>
      </Section>

      <section aria-labelledby="cta-heading" className="bg-slate-950 text-white">
        <div className="mx-auto max-w-6xl px-4 py-16 text-center sm:px-6">
          <h2 id="cta-heading" className="text-3xl font-bold tracking-tight md:text-4xl">
            Ready to take your institute online?
          </h2>
          <p className="mx-auto mt-4 max-w-xl text-slate-200">
            Start your 14-day free trial today. No setup fee, no credit card.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Link to={TRIAL_START_PATH} className={buttonClasses("accent", "lg")}>
              Start Free Trial
            </Link>
            <Link to="/pricing" className={buttonClasses("onDark", "lg")}>
              See pricing
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
