import { CalendarClock, CheckCircle2, ClipboardList, FileText, Layers, Radio, Video } from "lucide-react";
import type { LearningItemJson } from "#common/content-types.ts";
import { formatPrice } from "#common/format.ts";
import { cn } from "~/lib/cn";
import { Badge } from "~/components/ui/badge";
import { formatTime } from "#common/time.ts";

export const TYPE_ICONS = { pdf: FileText, video: Video, live: Radio, test: ClipboardList, series: Layers } as const;

/** "Sat, 22 Nov, 10:00 am" in India time (classes are scheduled in IST). */
export function formatClassTime(iso: string): string {
  return formatTime(iso, "weekdayTime");
}

/** The time of day only: "9:45 am". */
export function formatClockTime(iso: string): string {
  return formatTime(iso, "time");
}

/**
 * One content on the catalog and the student pages: picture (or type icon), type, title,
 * description, institute, class time and price; `children` are its actions. Its id is the
 * anchor the institutes' home pages link to (`/catalog#content-{id}`).
 */
export function ContentCard({
  item,
  children,
  className,
  headingLevel = 3,
}: {
  item: LearningItemJson;
  children?: React.ReactNode;
  className?: string;
  /** 2 where the card sits right under the page's h1 (no level is skipped), 3 under a section's h2. */
  headingLevel?: 2 | 3;
}) {
  const Icon = TYPE_ICONS[item.type];
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article
      id={`content-${item._id}`}
      aria-labelledby={`content-${item._id}-title`}
      className={cn(
        "flex scroll-mt-24 flex-col overflow-hidden rounded-xl border bg-card text-card-foreground shadow-sm transition-shadow target:ring-2 target:ring-primary target:ring-offset-2",
        className,
      )}
    >
      <div className="relative grid aspect-[16/7] place-items-center bg-gradient-to-br from-primary/15 via-primary/5 to-transparent">
        {item.thumbnailUrl ? (
          <img src={item.thumbnailUrl} alt="" loading="lazy" className="absolute inset-0 h-full w-full object-cover" />
        ) : (
          <Icon className="size-10 text-primary/70" aria-hidden />
        )}
        {(item.enrolled || item.fromBatch) && (
          <Badge tone="success" className="absolute right-3 top-3 bg-card/95 shadow-sm">
            <CheckCircle2 className="size-3.5" aria-hidden /> {item.enrolled ? "Enrolled" : "From your batch"}
          </Badge>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-4">
        <p className="text-xs font-semibold uppercase tracking-wide text-primary">
          {item.type === "live" ? "Live class" : item.type === "video" ? "Video course" : "Study material"}
        </p>
        <Heading id={`content-${item._id}-title`} className="text-base font-semibold leading-snug">
          {item.title}
        </Heading>
        {item.description && <p className="line-clamp-2 text-sm text-muted-foreground">{item.description}</p>}
        <div className="mt-auto grid gap-1 pt-1 text-xs text-muted-foreground">
          {item.businessName && <span>{item.businessName}</span>}
          {item.type === "live" && item.liveStartsAt && (
            <span className="inline-flex items-center gap-1">
              <CalendarClock className="size-3.5" aria-hidden /> {formatClassTime(item.liveStartsAt)}
            </span>
          )}
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2 border-t pt-3">
          <span className="text-lg font-semibold tabular-nums" data-testid="price">
            {formatPrice(item.price)}
          </span>
          <div className="flex flex-wrap items-center justify-end gap-2">{children}</div>
        </div>
      </div>
    </article>
  );
}
