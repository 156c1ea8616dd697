import { ClipboardList, Download, ExternalLink, PlayCircle } from "lucide-react";
import type { LearningItemJson } from "#common/content-types.ts";
import { Button, ButtonLink, buttonClasses } from "~/components/ui/button";
import { EnrolButton } from "./enrol";
import { formatClockTime } from "./content-card";

/** Where an enrolment is opened: its card on My Courses. */
export const myCoursesPath = (enrollmentId: string | null) =>
  `/student/my-courses${enrollmentId ? `#enrollment-${enrollmentId}` : ""}`;

/** Whether the viewer has it already: bought (enrolled), or opened by a batch they are admitted to. */
export const holds = (item: LearningItemJson) => item.enrolled || item.fromBatch;

/**
 * A live class: 'Join Now' opens the class for its students once its link is out (15 minutes
 * before it starts); for others it enrols (or buys) first. Disabled 'Link not set' when the
 * creator has not given a link.
 */
export function LiveAction({ item }: { item: LearningItemJson }) {
  if (!item.hasLiveLink) {
    return (
      <Button variant="outline" size="sm" disabled>
        Link not set
      </Button>
    );
  }
  if (item.liveLink) {
    return (
      <a href={item.liveLink} target="_blank" rel="noopener noreferrer" className={buttonClasses("default", "sm")}>
        <ExternalLink className="size-4" aria-hidden /> Join Now
      </a>
    );
  }
  if (holds(item)) {
    return (
      <span className="flex flex-col items-end gap-1">
        <Button size="sm" disabled>
          Join Now
        </Button>
        {item.liveOpensAt && (
          <span className="text-xs text-muted-foreground">Opens at {formatClockTime(item.liveOpensAt)}</span>
        )}
      </span>
    );
  }
  return (
    <EnrolButton item={item} size="sm">
      Join Now
    </EnrolButton>
  );
}

/** A video course: 'View' on My Courses once enrolled; otherwise enrol or buy it. */
export function CourseAction({ item }: { item: LearningItemJson }) {
  if (holds(item)) {
    return (
      <ButtonLink to={myCoursesPath(item.enrollmentId)} size="sm">
        <PlayCircle className="size-4" aria-hidden /> View
      </ButtonLink>
    );
  }
  return <EnrolButton item={item} size="sm" />;
}

/** A PDF: 'Get Materials' downloads the student's own (watermarked) copy, enrolling or buying first; 'Not available' without a file. */
export function MaterialAction({ item }: { item: LearningItemJson }) {
  if (!item.file) {
    return (
      <Button variant="outline" size="sm" disabled>
        Not available
      </Button>
    );
  }
  if (holds(item) && item.fileUrl) {
    return (
      <a href={item.fileUrl} download={item.file.name} className={buttonClasses("default", "sm")}>
        <Download className="size-4" aria-hidden /> Get Materials
      </a>
    );
  }
  return (
    <EnrolButton item={item} size="sm">
      Get Materials
    </EnrolButton>
  );
}

/** A mock test or test series: taken from Mock Tests once free or bought; otherwise bought first. */
export function TestAction({ item }: { item: LearningItemJson }) {
  if (holds(item) || (item.type === "test" && item.price === 0)) {
    return (
      <ButtonLink to={item.type === "test" ? `/student/mock-tests/${item._id}` : "/student/mock-tests"} size="sm">
        <ClipboardList className="size-4" aria-hidden /> {item.type === "test" ? "Take test" : "Open tests"}
      </ButtonLink>
    );
  }
  return <EnrolButton item={item} size="sm" />;
}

export function ContentAction({ item }: { item: LearningItemJson }) {
  if (item.type === "test" || item.type === "series") return <TestAction item={item} />;
  if (item.type === "live") return <LiveAction item={item} />;
  if (item.type === "video") return <CourseAction item={item} />;
  return <MaterialAction item={item} />;
}
