import { BookOpen, CalendarClock, Compass, Download, ExternalLink } from "lucide-react";
import type { Route } from "./+types/my-courses";
import { loadBatchContents, loadMyCourses } from "~/lib/learning.server";
import { useFreshLinks } from "~/lib/use-fresh-links";
import type { LearningItemJson } from "#common/content-types.ts";
import type { StudentBatchContentJson } from "#common/validation/batches.ts";
import { formatBytes, formatDate } from "#common/format.ts";
import { Button, ButtonLink, buttonClasses } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { SignedVideo } from "~/components/learning/signed-video";
import { TestAction } from "~/components/learning/content-actions";
import { TYPE_ICONS, formatClassTime, formatClockTime } from "~/components/learning/content-card";

export const meta: Route.MetaFunction = () => [{ title: "My Courses | Student" }];

export async function loader({ context }: Route.LoaderArgs) {
  const [items, fromBatches] = await Promise.all([loadMyCourses(context), loadBatchContents(context)]);
  return { items, fromBatches };
}

export default function MyCourses({ loaderData }: Route.ComponentProps) {
  const { items, fromBatches } = loaderData;
  const everything = [...items, ...fromBatches];
  // Download links renew before they expire; a class's link appears when it opens.
  useFreshLinks(
    everything.filter((i) => i.content.type === "pdf").map((i) => i.content.linkExpiresAt),
    everything.map((i) => i.content.liveOpensAt),
  );
  return (
    <div className="mx-auto max-w-4xl">
      <PageHeader
        title="My Courses"
        description="Everything you are enrolled in, and what your batches open to you."
        actions={
          <ButtonLink to="/catalog" variant="outline" size="sm">
            <Compass className="size-4" aria-hidden /> Browse Catalog
          </ButtonLink>
        }
      />
      {items.length === 0 && fromBatches.length === 0 ? (
        <EmptyState icon={<BookOpen />} title="No enrolled courses yet.">
          <ButtonLink to="/catalog" size="sm">
            <Compass className="size-4" aria-hidden /> Browse Catalog
          </ButtonLink>
        </EmptyState>
      ) : (
        <ul className="grid gap-4">
          {items.map((item) => (
            <li key={item.enrollmentId}>
              <Holding
                content={item.content}
                anchor={`enrollment-${item.enrollmentId}`}
                note={`Enrolled ${formatDate(item.enrolledAt)}`}
              />
            </li>
          ))}
        </ul>
      )}
      {fromBatches.length > 0 && <FromBatches rows={fromBatches} />}
    </div>
  );
}

/** What the student's batches open to them: theirs without buying, each marked with its batch. */
function FromBatches({ rows }: { rows: StudentBatchContentJson[] }) {
  return (
    <section aria-labelledby="from-batches" className="mt-8 grid gap-4">
      <h2 id="from-batches" className="text-lg font-semibold">
        From your batches
      </h2>
      <ul className="grid gap-4">
        {rows.map((row) => (
          <li key={`${row.batch._id}-${row.content._id}`}>
            {row.withheld ? (
              <Card>
                <CardContent className="grid gap-2 p-5 sm:p-6" aria-label={`${row.content.title}: locked`}>
                  <h2 className="text-lg font-semibold leading-snug">{row.content.title}</h2>
                  <p className="text-xs text-muted-foreground">From your batch {row.batch.name} · locked</p>
                  <p role="note" className="text-sm text-destructive">
                    {row.withheld}
                  </p>
                  <p className="text-sm">
                    <a href="/student/fees" className="text-primary underline-offset-4 hover:underline">
                      Your fees
                    </a>
                  </p>
                </CardContent>
              </Card>
            ) : (
              <Holding
                content={row.content}
                anchor={`batch-${row.batch._id}-${row.content._id}`}
                note={`From your batch ${row.batch.name}`}
              />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A content the student holds (bought or through a batch), with what opens it. */
function Holding({ content, anchor, note }: { content: LearningItemJson; anchor: string; note: string }) {
  const Icon = TYPE_ICONS[content.type];
  return (
    <Card id={anchor} className="scroll-mt-20 target:ring-2 target:ring-primary">
      <CardContent className="grid gap-4 p-5 sm:p-6">
        <div className="flex items-start gap-3">
          <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-primary/10 text-primary">
            <Icon className="size-5" aria-hidden />
          </span>
          <div className="min-w-0 flex-1">
            <h2 className="text-lg font-semibold leading-snug">{content.title}</h2>
            <p className="mt-0.5 text-xs text-muted-foreground">
              <span className="font-semibold uppercase tracking-wide text-primary" data-testid="content-type">
                {content.type}
              </span>
              {content.businessName ? ` · ${content.businessName}` : ""} · {note}
            </p>
          </div>
        </div>
        {content.description && (
          <p className="whitespace-pre-line text-sm leading-relaxed text-muted-foreground">{content.description}</p>
        )}

        {content.type === "video" &&
          (content.fileUrl ? (
            <SignedVideo
              contentId={content._id}
              url={content.fileUrl}
              expiresAt={content.linkExpiresAt}
              title={content.title}
            />
          ) : (
            <p className="text-sm text-muted-foreground">This video is not available.</p>
          ))}

        {content.type === "pdf" &&
          (content.fileUrl && content.file ? (
            <div className="flex flex-wrap items-center gap-3">
              <a href={content.fileUrl} download={content.file.name} className={buttonClasses("default", "md")}>
                <Download className="size-4" aria-hidden /> Download
              </a>
              <span className="text-xs text-muted-foreground">
                PDF · {formatBytes(content.file.size)} · your personal copy, marked with your name
              </span>
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">This file is not available.</p>
          ))}

        {content.type === "live" && <LiveClass content={content} />}
        {(content.type === "test" || content.type === "series") && (
          <div>
            <TestAction item={content} />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function LiveClass({ content }: { content: LearningItemJson }) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      {content.liveLink ? (
        <a href={content.liveLink} target="_blank" rel="noopener noreferrer" className={buttonClasses("default", "md")}>
          <ExternalLink className="size-4" aria-hidden /> Join Live Class
        </a>
      ) : (
        <Button disabled>{content.hasLiveLink ? "Join Live Class" : "Link not set"}</Button>
      )}
      {content.liveStartsAt && (
        <span className="inline-flex items-center gap-1 text-sm text-muted-foreground">
          <CalendarClock className="size-4" aria-hidden /> {formatClassTime(content.liveStartsAt)}
          {content.liveOpensAt && ` · link opens at ${formatClockTime(content.liveOpensAt)}`}
        </span>
      )}
    </div>
  );
}
