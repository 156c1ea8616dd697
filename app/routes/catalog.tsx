import { Link } from "react-router";
import { ArrowLeft, ClipboardList, FileText, GraduationCap, LogIn, MonitorPlay, Radio } from "lucide-react";
import type { Route } from "./+types/catalog";
import { enrolFromForm, loadCatalog } from "~/lib/learning.server";
import { loadSiteTests } from "~/lib/mock-tests/student.server";
import { testPath } from "~/lib/mock-tests/student-paths";
import { BuyOnArrival, TestOffers } from "~/components/learning/test-offers";
import { useFreshLinks } from "~/lib/use-fresh-links";
import type { LearningItemJson } from "#common/content-types.ts";
import { useRootData } from "~/root";
import { LogoMark } from "~/components/shell/logo";
import { ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { EnrolProvider } from "~/components/learning/enrol";
import { ContentCard } from "~/components/learning/content-card";
import { ContentAction, holds } from "~/components/learning/content-actions";

export const meta: Route.MetaFunction = ({ matches }) => {
  const site = (matches[0]?.loaderData as { site?: { kind: string; instituteName?: string } } | undefined)?.site;
  const brand = site?.kind === "tenant" ? site.instituteName : "Pathshala";
  return [
    { title: `Catalog | ${brand}` },
    { name: "description", content: `Live classes, video courses, study materials and mock tests from ${brand}.` },
  ];
};

export async function loader({ context }: Route.LoaderArgs) {
  const [{ items, checkout }, offered] = await Promise.all([loadCatalog(context), loadSiteTests(context)]);
  return {
    checkout,
    ...offered,
    sections: {
      live: items.filter((i) => i.type === "live"),
      courses: items.filter((i) => i.type === "video"),
      materials: items.filter((i) => i.type === "pdf"),
    },
  };
}

export const action = ({ request, context }: Route.ActionArgs) => enrolFromForm(request, context);

const SECTIONS = [
  {
    key: "live",
    title: "Live Classes",
    Icon: Radio,
    empty: "No live classes available.",
    blurb: "Join your teachers live. Links open 15 minutes before each class.",
  },
  {
    key: "courses",
    title: "Courses",
    Icon: MonitorPlay,
    empty: "No courses available.",
    blurb: "Video lessons to learn at your own pace.",
  },
  {
    key: "materials",
    title: "Materials",
    Icon: FileText,
    empty: "No materials available.",
    blurb: "Notes, formula sheets and practice papers.",
  },
] as const;

export default function Catalog({ loaderData }: Route.ComponentProps) {
  const { sections, checkout, tests, series } = loaderData;
  const now = new Date(loaderData.now);
  const testIds = new Set(tests.map((t) => t._id));
  const root = useRootData();
  const site = root?.site;
  const viewer = root?.viewer ?? null;
  const all = [...sections.live, ...sections.courses, ...sections.materials];
  useFreshLinks(
    all.map((i) => i.linkExpiresAt),
    all.map((i) => (holds(i) ? i.liveOpensAt : null)),
  );
  const brand = site?.kind === "tenant" ? site.instituteName : "Pathshala";

  return (
    // A test bought opens; a series bought stays on its card, which then offers each of its tests.
    <EnrolProvider checkout={checkout} openAfter={(item) => (testIds.has(item._id) ? testPath(item._id) : null)}>
      <BuyOnArrival items={[...series, ...tests]} now={now} />
      <div className="min-h-screen bg-muted/30">
        <header className="sticky top-0 z-30 border-b bg-background/90 backdrop-blur">
          <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-3 px-4 md:px-6">
            <Link to="/" className="flex min-w-0 items-center gap-2 font-semibold" aria-label={`${brand} home`}>
              {site?.kind === "tenant" ? (
                site.logoUrl ? (
                  <img src={site.logoUrl} alt="" className="size-8 shrink-0 rounded-md object-cover" />
                ) : (
                  <GraduationCap className="size-7 shrink-0 text-primary" aria-hidden />
                )
              ) : (
                <LogoMark />
              )}
              <span className="truncate">{brand}</span>
            </Link>
            <div className="flex shrink-0 items-center gap-2">
              {!viewer && (
                <ButtonLink to="/auth?role=student&redirectTo=%2Fcatalog" variant="ghost" size="sm">
                  <LogIn className="size-4" aria-hidden /> Sign in
                </ButtonLink>
              )}
              <ButtonLink to="/student" variant="outline" size="sm">
                <ArrowLeft className="size-4" aria-hidden /> Back to Dashboard
              </ButtonLink>
            </div>
          </div>
        </header>

        <main className="mx-auto max-w-6xl px-4 pb-16 pt-8 md:px-6">
          <div className="rounded-2xl bg-gradient-to-r from-primary to-primary/75 p-6 text-primary-foreground shadow-sm md:p-8">
            <h1 className="text-2xl font-semibold tracking-tight md:text-3xl">Catalog</h1>
            <p className="mt-2 max-w-2xl text-sm opacity-90 md:text-base">
              Live classes, video courses, study materials and mock tests
              {site?.kind === "tenant" ? ` from ${brand}` : ""}. Enrol in free ones at once; paid ones open a secure
              Razorpay checkout.
            </p>
            <nav aria-label="Catalog sections" className="mt-4 flex flex-wrap gap-2">
              {SECTIONS.map(({ key, title, Icon }) => (
                <a
                  key={key}
                  href={`#${key}`}
                  className="inline-flex items-center gap-1.5 rounded-full bg-white/15 px-3 py-1 text-sm font-medium hover:bg-white/25"
                >
                  <Icon className="size-4" aria-hidden /> {title}
                  <span className="tabular-nums opacity-80">({sections[key].length})</span>
                </a>
              ))}
              <a
                href="#mock-tests"
                className="inline-flex items-center gap-1.5 rounded-full bg-white/15 px-3 py-1 text-sm font-medium hover:bg-white/25"
              >
                <ClipboardList className="size-4" aria-hidden /> Mock Tests
                <span className="tabular-nums opacity-80">({series.length + tests.length})</span>
              </a>
            </nav>
          </div>

          <noscript>
            <p className="mt-4 rounded-lg border bg-card p-3 text-sm">
              Free courses enrol without JavaScript; paying for a course opens Razorpay Checkout, which needs JavaScript
              turned on.
            </p>
          </noscript>

          {SECTIONS.map(({ key, title, Icon, empty, blurb }) => (
            <CatalogSection
              key={key}
              id={key}
              title={title}
              icon={<Icon className="size-5" aria-hidden />}
              blurb={blurb}
              empty={empty}
              items={sections[key]}
            />
          ))}
          <TestOffers tests={tests} series={series} now={now} />
        </main>
      </div>
    </EnrolProvider>
  );
}

function CatalogSection({
  id,
  title,
  icon,
  blurb,
  empty,
  items,
}: {
  id: string;
  title: string;
  icon: React.ReactNode;
  blurb: string;
  empty: string;
  items: LearningItemJson[];
}) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="mt-10 scroll-mt-20">
      <div className="mb-4 flex items-end justify-between gap-3">
        <div>
          <h2 id={`${id}-heading`} className="flex items-center gap-2 text-xl font-semibold tracking-tight">
            <span className="text-primary">{icon}</span> {title}
          </h2>
          <p className="mt-1 text-sm text-muted-foreground">{blurb}</p>
        </div>
      </div>
      {items.length === 0 ? (
        <EmptyState title={empty} />
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {items.map((item) => (
            <ContentCard key={item._id} item={item}>
              <ContentAction item={item} />
            </ContentCard>
          ))}
        </div>
      )}
    </section>
  );
}
