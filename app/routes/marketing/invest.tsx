import { lazy, Suspense, useState } from "react";
import { Link, useRouteLoaderData } from "react-router";
import { ArrowRight, CalendarDays, CheckCircle2, Globe2, Rocket, TrendingUp, Users } from "lucide-react";
import type { Route } from "./+types/invest";
import { MARKETING_LAYOUT_ID, seo } from "~/lib/seo";
import { SEMINAR_DATE_LINE, STATS } from "~/lib/site-content";
import { Button } from "~/components/ui/button";
import { Section, SectionHeading } from "~/components/marketing/section";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    matches,
    title: "Invest in Pathshala",
    description:
      "Pathshala is fully built, already serving coaching institutes, and seeking investment partners. Join our online investment seminar, 13th September onwards.",
    path: "/invest",
  });

// The booking dialog (calendar, popover, form) is loaded only when someone wants it, so the page
// itself stays light; pointing at or focusing a button starts loading it.
const loadDialog = () => import("~/components/marketing/seminar-dialog");
const SeminarDialog = lazy(loadDialog);

export const INVEST_TICKS = [
  "100% Complete Development",
  "Proven Market Outreach",
  "Seeking Investment Partners",
] as const;

const HIGHLIGHTS = [
  {
    icon: Rocket,
    title: "Built and running",
    text: "Websites, payments, courses and live classes are live for institutes today, not a roadmap.",
  },
  {
    icon: Users,
    title: "A large, growing market",
    text: "Millions of students prepare for JEE, NEET and Boards every year, most of them through local coaching institutes.",
  },
  {
    icon: TrendingUp,
    title: "Recurring revenue",
    text: "Institutes subscribe monthly, quarterly or yearly; creators and institutes sell through the same platform.",
  },
  {
    icon: Globe2,
    title: "Ready to scale",
    text: "White-label sites on institutes' own domains mean every new institute brings its own students.",
  },
];

export default function Invest() {
  const [open, setOpen] = useState(false);
  const [requested, setRequested] = useState(false);
  const [opener, setOpener] = useState<HTMLElement | null>(null);
  const layout = useRouteLoaderData(MARKETING_LAYOUT_ID) as { origin?: string } | undefined;
  const pageUrl = `${layout?.origin ?? ""}/invest`;
  const openDialog = (event: React.MouseEvent<HTMLElement>) => {
    setOpener(event.currentTarget);
    setRequested(true);
    setOpen(true);
  };
  const preload = () => void loadDialog();
  const trigger = {
    onClick: openDialog,
    onPointerEnter: preload,
    onFocus: preload,
    "aria-haspopup": "dialog" as const,
  };

  return (
    <>
      <section className="relative isolate overflow-hidden bg-slate-950 text-white">
        <div
          aria-hidden
          className="absolute inset-0 -z-10 bg-[radial-gradient(60%_60%_at_80%_20%,rgba(99,102,241,0.45),transparent),radial-gradient(50%_50%_at_10%_90%,rgba(251,146,60,0.25),transparent)]"
        />
        <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 py-16 sm:px-6 md:grid-cols-[1.3fr_1fr] md:py-24">
          <div>
            <p className="text-sm font-semibold uppercase tracking-wider text-orange-300">
              Showcasing Platform & Insights
            </p>
            <h1 className="animate-headline mt-4 bg-gradient-to-r from-white via-indigo-200 to-white bg-clip-text text-4xl font-bold leading-tight tracking-tight text-transparent sm:text-5xl md:text-6xl">
              Invest in the future of education
            </h1>
            <p className="mt-6 max-w-xl text-lg text-slate-200">
              Pathshala gives India's coaching institutes their own branded website, online payments, courses and live
              classes. The platform is complete and in use; we are now looking for partners to grow with us.
            </p>
            <button
              type="button"
              {...trigger}
              className="mt-6 inline-flex items-center gap-2 rounded-full border border-white/25 bg-white/10 px-4 py-2 text-sm font-medium hover:bg-white/20"
            >
              <CalendarDays className="size-4 text-orange-300" aria-hidden /> {SEMINAR_DATE_LINE}
            </button>
            <div className="mt-8 flex flex-wrap gap-3">
              <Button size="lg" variant="accent" {...trigger}>
                Join Our Online Investment Seminar <ArrowRight className="size-4" aria-hidden />
              </Button>
            </div>
            <p className="mt-6 text-sm text-slate-300">
              Share this page:{" "}
              <Link to="/invest" className="font-medium text-white underline underline-offset-4">
                {pageUrl.replace(/^https?:\/\//, "")}
              </Link>
            </p>
          </div>
          <div className="rounded-2xl border border-white/15 bg-white/5 p-6 backdrop-blur md:p-8">
            <h2 className="text-lg font-semibold">Why now</h2>
            <ul className="mt-5 grid gap-4">
              {INVEST_TICKS.map((tick) => (
                <li key={tick} className="flex items-center gap-3 text-base font-medium">
                  <CheckCircle2 className="size-6 shrink-0 text-emerald-400" aria-hidden /> {tick}
                </li>
              ))}
            </ul>
            <dl className="mt-8 grid grid-cols-2 gap-4 border-t border-white/15 pt-6">
              {STATS.slice(0, 2).map((stat) => (
                <div key={stat.label} className="flex flex-col">
                  <dt className="text-sm text-slate-300">{stat.label}</dt>
                  <dd className="order-first text-2xl font-bold">{stat.value}</dd>
                </div>
              ))}
            </dl>
          </div>
        </div>
      </section>

      <Section>
        <SectionHeading eyebrow="The opportunity" title="What you will see at the seminar">
          A live walk-through of the platform, how institutes use it, our numbers so far and where we are going next,
          with time for your questions.
        </SectionHeading>
        <ul className="mt-12 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {HIGHLIGHTS.map(({ icon: Icon, title, text }) => (
            <li key={title} className="rounded-2xl border bg-card p-6 shadow-sm">
              <Icon className="size-6 text-primary" aria-hidden />
              <h3 className="mt-4 font-semibold">{title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{text}</p>
            </li>
          ))}
        </ul>
        <div className="mt-12 text-center">
          <Button size="lg" {...trigger}>
            Join Our Online Investment Seminar
          </Button>
        </div>
      </Section>

      {requested && (
        <Suspense fallback={null}>
          <SeminarDialog open={open} onOpenChange={setOpen} returnFocusTo={opener} />
        </Suspense>
      )}
    </>
  );
}
