import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router";
import { CalendarClock, CheckCircle2, ClipboardList, Clock, Layers, ListChecks } from "lucide-react";
import { formatPrice } from "#common/format.ts";
import { PATTERNS, type PatternId } from "#common/mock-tests/patterns.ts";
import { lastSubmitted, testAvailability, type StudentTestOutline } from "#common/mock-tests/test-availability.ts";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { resultPath, testPath } from "~/lib/mock-tests/student-paths";
import { EnrolButton, useEnrol } from "./enrol";
import { formatClassTime } from "./content-card";

/** A test as the catalog offers it (the student list's test, with the viewer's sittings). */
export interface OfferedTest extends StudentTestOutline {
  _id: string;
  title: string;
  description: string;
  pattern: string;
  durationMinutes: number;
  questionCount: number;
  /** False while its institute has not connected its payment account ('Not on sale yet'). */
  onSale?: boolean;
}

export interface OfferedSeries {
  _id: string;
  title: string;
  description: string;
  price: number;
  enrolled?: boolean;
  onSale?: boolean;
  tests: { _id: string; title: string }[];
}

/** Where 'Buy' on the institute's home page lands: this card, with Checkout opened (after signing up). */
export const buyPath = (contentId: string) => `/catalog?buy=${contentId}#content-${contentId}`;

/** Whether the viewer would be sold (or enrolled in) the item right now. */
function forSale(item: OfferedTest | OfferedSeries, now: Date): boolean {
  if ("tests" in item) return !item.enrolled;
  return testAvailability(item, now).kind === "buy";
}

/**
 * Opens Checkout for the item named by `?buy=` once the page is there: the institute's site links
 * 'Buy' here, and a visitor who signed up on the way comes back here. The parameter is dropped at
 * once, so going back or reloading never opens Checkout again.
 */
export function BuyOnArrival({ items, now }: { items: (OfferedTest | OfferedSeries)[]; now: Date }) {
  const { enrol } = useEnrol();
  const location = useLocation();
  const navigate = useNavigate();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    const id = new URLSearchParams(location.search).get("buy");
    if (!id) return;
    done.current = true;
    const item = items.find((i) => i._id === id);
    if (!item || !forSale(item, now)) {
      const rest = new URLSearchParams(location.search);
      rest.delete("buy");
      navigate({ search: rest.size ? `?${rest}` : "", hash: location.hash }, { replace: true });
      return;
    }
    void enrol(item, { returnTo: buyPath(item._id) });
  }, [items, now, location, navigate, enrol]);
  return null;
}

/** The catalog's Mock Tests: series (what each opens) and tests, priced, each with what the viewer can do. */
export function TestOffers({ tests, series, now }: { tests: OfferedTest[]; series: OfferedSeries[]; now: Date }) {
  const byId = new Map(tests.map((t) => [t._id, t]));
  return (
    <section id="mock-tests" aria-labelledby="mock-tests-heading" className="mt-10 scroll-mt-20">
      <div className="mb-4">
        <h2 id="mock-tests-heading" className="flex items-center gap-2 text-xl font-semibold tracking-tight">
          <span className="text-primary">
            <ClipboardList className="size-5" aria-hidden />
          </span>{" "}
          Mock Tests
        </h2>
        <p className="mt-1 text-sm text-muted-foreground">
          Timed tests in the exam&apos;s own pattern, with your score, rank and a question-wise review.
        </p>
      </div>
      {tests.length === 0 && series.length === 0 ? (
        <EmptyState title="No mock tests available." />
      ) : (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {series.map((s) => (
            <SeriesCard key={s._id} series={s} tests={s.tests.map((t) => byId.get(t._id)!)} now={now} />
          ))}
          {tests.map((test) => (
            <TestCard key={test._id} test={test} now={now} />
          ))}
        </div>
      )}
    </section>
  );
}

function OfferCard({
  id,
  kind,
  title,
  description,
  price,
  badge,
  children,
  footer,
}: {
  id: string;
  kind: string;
  title: string;
  description: string;
  price: number;
  badge?: React.ReactNode;
  children?: React.ReactNode;
  footer: React.ReactNode;
}) {
  return (
    <article
      id={`content-${id}`}
      aria-labelledby={`content-${id}-title`}
      className="flex scroll-mt-24 flex-col gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-sm target:ring-2 target:ring-primary target:ring-offset-2"
    >
      <div className="flex items-start justify-between gap-2">
        <p className="text-xs font-semibold uppercase tracking-wide text-primary">{kind}</p>
        {badge}
      </div>
      <h3 id={`content-${id}-title`} className="-mt-2 text-base font-semibold leading-snug">
        {title}
      </h3>
      {description && <p className="line-clamp-2 text-sm text-muted-foreground">{description}</p>}
      {children}
      <div className="mt-auto flex flex-wrap items-center justify-between gap-2 border-t pt-3">
        <span className="text-lg font-semibold tabular-nums" data-testid="price">
          {formatPrice(price)}
        </span>
        <div className="flex flex-wrap items-center justify-end gap-2">{footer}</div>
      </div>
    </article>
  );
}

export function SeriesCard({ series, tests, now }: { series: OfferedSeries; tests: OfferedTest[]; now: Date }) {
  const count = `${tests.length} ${tests.length === 1 ? "test" : "tests"}`;
  return (
    <OfferCard
      id={series._id}
      kind={`Test series · ${count}`}
      title={series.title}
      description={series.description}
      price={series.price}
      badge={
        series.enrolled ? (
          <Badge tone="success">
            <CheckCircle2 className="size-3.5" aria-hidden /> Enrolled
          </Badge>
        ) : (
          <Layers className="size-4 text-primary/70" aria-hidden />
        )
      }
      footer={
        series.enrolled ? (
          <span className="text-sm text-muted-foreground">All {count} are yours</span>
        ) : (
          <EnrolButton item={series} returnTo={buyPath(series._id)} size="sm" />
        )
      }
    >
      <ol aria-label={`Tests in ${series.title}`} className="grid gap-2 rounded-lg bg-muted/50 p-3 text-sm">
        {tests.map((test) => (
          <li key={test._id} className="flex flex-wrap items-center justify-between gap-2">
            <span className="min-w-0 font-medium">{test.title}</span>
            {series.enrolled && <TestOfferAction test={test} now={now} compact />}
          </li>
        ))}
      </ol>
    </OfferCard>
  );
}

function TestCard({ test, now }: { test: OfferedTest; now: Date }) {
  const pattern = PATTERNS[test.pattern as PatternId]?.name ?? test.pattern;
  return (
    <OfferCard
      id={test._id}
      kind={`Mock test · ${pattern}`}
      title={test.title}
      description={test.description}
      price={test.price}
      badge={
        test.entitled && test.price > 0 ? (
          <Badge tone="success">
            <CheckCircle2 className="size-3.5" aria-hidden /> Enrolled
          </Badge>
        ) : undefined
      }
      footer={<TestOfferAction test={test} now={now} />}
    >
      <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground">
        <li className="inline-flex items-center gap-1">
          <Clock className="size-3.5" aria-hidden /> {test.durationMinutes} min
        </li>
        <li className="inline-flex items-center gap-1">
          <ListChecks className="size-3.5" aria-hidden /> {test.questionCount}{" "}
          {test.questionCount === 1 ? "question" : "questions"}
        </li>
        {(test.opensAt || test.closesAt) && (
          <li className="inline-flex items-center gap-1">
            <CalendarClock className="size-3.5" aria-hidden />
            {test.opensAt && `Opens ${formatClassTime(test.opensAt)}`}
            {test.opensAt && test.closesAt && " · "}
            {test.closesAt && `Closes ${formatClassTime(test.closesAt)}`}
          </li>
        )}
      </ul>
    </OfferCard>
  );
}

/**
 * What the viewer can do with a test now: take it (free, or bought), buy it, wait for it to open,
 * or, when it has closed or their attempts are used, an honest state with their result.
 */
function TestOfferAction({ test, now, compact = false }: { test: OfferedTest; now: Date; compact?: boolean }) {
  const availability = testAvailability(test, now);
  const taken = lastSubmitted(test);
  const size = "sm" as const;
  const attempted = (
    <>
      <Badge tone="muted">Attempted</Badge>
      {taken && (
        <ButtonLink to={resultPath(taken._id)} variant="outline" size={size}>
          View result
        </ButtonLink>
      )}
    </>
  );
  switch (availability.kind) {
    case "resume":
      return (
        <ButtonLink to={testPath(test._id)} size={size}>
          Resume Test
        </ButtonLink>
      );
    case "closed":
      return taken ? (
        attempted
      ) : (
        <Button size={size} variant="outline" disabled>
          Closed
        </Button>
      );
    case "used-up":
      return attempted;
    case "buy":
      return compact ? null : <EnrolButton item={test} returnTo={buyPath(test._id)} size={size} />;
    case "not-open":
      return (
        <Button size={size} disabled>
          Opens {formatClassTime(availability.opensAt)}
        </Button>
      );
    case "start":
      return (
        <ButtonLink to={testPath(test._id)} size={size}>
          {availability.again ? "Take Again" : test.price === 0 ? "Take the free test" : "Start Test"}
        </ButtonLink>
      );
  }
}
