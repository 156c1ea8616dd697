import { Link, redirect } from "react-router";
import {
  BookOpen,
  Compass,
  ExternalLink,
  FileText,
  LibraryBig,
  MonitorPlay,
  PlayCircle,
  Radio,
  UserRound,
} from "lucide-react";
import type { Route } from "./+types/home";
import { loadMyCourses } from "~/lib/learning.server";
import { areaViewer } from "~/lib/area.server";
import { isParentOnly } from "~/lib/parent/area.server";
import { useFreshLinks } from "~/lib/use-fresh-links";
import type { EnrollmentJson } from "#common/content-types.ts";
import { useRootData } from "~/root";
import { ButtonLink, buttonClasses } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { UserAvatar } from "~/components/shell/user-avatar";
import { TYPE_ICONS } from "~/components/learning/content-card";

export const meta: Route.MetaFunction = () => [{ title: "Dashboard | Student" }];

/** Spec §9: the dashboard shows at most four recent enrolments. */
const RECENT = 4;

export async function loader({ context }: Route.LoaderArgs) {
  // A parent's account (made when they answered their child's invitation) studies nowhere: its home is the parent's area.
  if (await isParentOnly(context)) throw redirect("/parent");
  const items = await loadMyCourses(context);
  const count = (type: string) => items.filter((i) => i.content.type === type).length;
  return {
    viewer: areaViewer(context),
    stats: { total: items.length, live: count("live"), video: count("video"), pdf: count("pdf") },
    recent: items.slice(0, RECENT),
  };
}

export default function StudentHome({ loaderData }: Route.ComponentProps) {
  const { viewer, stats, recent } = loaderData;
  const site = useRootData()?.site;
  useFreshLinks(
    recent.map((r) => r.content.linkExpiresAt),
    recent.map((r) => r.content.liveOpensAt),
  );
  return (
    <div className="mx-auto grid max-w-6xl grid-cols-1 gap-6">
      <section className="rounded-2xl bg-gradient-to-r from-primary to-primary/70 p-6 text-primary-foreground shadow-sm">
        <p className="text-sm opacity-90">{site?.kind === "tenant" ? site.instituteName : "Student dashboard"}</p>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">Welcome back, {viewer.name}!</h1>
        <p className="mt-2 max-w-xl text-sm opacity-90">Pick up where you left off, or find something new to learn.</p>
      </section>

      <div className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-4">
        <Stat id="total" label="Total Courses" value={stats.total} icon={<LibraryBig />} />
        <Stat id="live" label="Live Classes" value={stats.live} icon={<Radio />} />
        <Stat id="video" label="Video Courses" value={stats.video} icon={<MonitorPlay />} />
        <Stat id="pdf" label="Study Materials" value={stats.pdf} icon={<FileText />} />
      </div>

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[1.6fr_1fr]">
        <Card>
          <CardHeader className="flex-row items-center justify-between gap-3">
            <CardTitle>Recent Enrollments</CardTitle>
            <Link to="/my-courses" className="text-sm font-medium text-primary underline-offset-4 hover:underline">
              View all
            </Link>
          </CardHeader>
          <CardContent>
            {recent.length === 0 ? (
              <EmptyState icon={<BookOpen />} title="No courses yet. Enroll from the catalog.">
                <ButtonLink to="/catalog" size="sm">
                  <Compass className="size-4" aria-hidden /> Browse Catalog
                </ButtonLink>
              </EmptyState>
            ) : (
              <ul className="divide-y">
                {recent.map((item) => (
                  <RecentItem key={item.enrollmentId} item={item} />
                ))}
              </ul>
            )}
          </CardContent>
        </Card>

        <div className="grid grid-cols-1 content-start gap-6">
          <Card>
            <CardHeader>
              <CardTitle>Quick Actions</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-2">
              <ButtonLink to="/my-courses" className="justify-start">
                <PlayCircle className="size-4" aria-hidden /> Continue Learning
              </ButtonLink>
              <ButtonLink to="/student/courses" variant="outline" className="justify-start">
                <Compass className="size-4" aria-hidden /> Browse Courses
              </ButtonLink>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle>Account</CardTitle>
            </CardHeader>
            <CardContent className="flex items-center gap-3">
              <UserAvatar name={viewer.name} url={viewer.avatarUrl} size={48} />
              <div className="min-w-0 flex-1">
                <p className="truncate font-medium">{viewer.name}</p>
                <p className="text-sm text-muted-foreground">Student account</p>
              </div>
              <ButtonLink to="/profile" variant="outline" size="sm">
                <UserRound className="size-4" aria-hidden /> Manage Profile
              </ButtonLink>
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}

/**
 * Spec §2: a live class with its link 'Join Live'; a PDF with its file 'Open PDF'; anything
 * else with a resource 'Continue'; otherwise 'Open' (My Courses).
 */
function RecentItem({ item }: { item: EnrollmentJson }) {
  const { content } = item;
  const Icon = TYPE_ICONS[content.type];
  const onMyCourses = `/my-courses#enrollment-${item.enrollmentId}`;
  let action: React.ReactNode;
  if (content.type === "live" && content.liveLink) {
    action = (
      <a href={content.liveLink} target="_blank" rel="noopener noreferrer" className={buttonClasses("default", "sm")}>
        <ExternalLink className="size-4" aria-hidden /> Join Live
      </a>
    );
  } else if (content.type === "pdf" && content.resourceUrl) {
    action = (
      <a href={content.resourceUrl} target="_blank" rel="noopener" className={buttonClasses("default", "sm")}>
        <FileText className="size-4" aria-hidden /> Open PDF
      </a>
    );
  } else if (content.resourceUrl) {
    action = (
      <ButtonLink to={onMyCourses} size="sm">
        <PlayCircle className="size-4" aria-hidden /> Continue
      </ButtonLink>
    );
  } else {
    action = (
      <ButtonLink to={onMyCourses} size="sm" variant="outline">
        Open
      </ButtonLink>
    );
  }
  return (
    <li className="flex items-center gap-3 py-3">
      <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-primary/10 text-primary">
        <Icon className="size-5" aria-hidden />
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium">{content.title}</p>
        <p className="truncate text-xs text-muted-foreground">
          <span className="uppercase">{content.type}</span>
          {content.businessName ? ` · ${content.businessName}` : ""}
        </p>
      </div>
      {action}
    </li>
  );
}

function Stat({ id, label, value, icon }: { id: string; label: string; value: number; icon: React.ReactNode }) {
  return (
    <Card data-testid={`stat-${id}`}>
      <CardContent className="flex items-start justify-between gap-3 p-4 sm:p-5">
        <div className="min-w-0">
          <p className="text-sm text-muted-foreground">{label}</p>
          <p className="mt-1 text-2xl font-semibold tabular-nums">{value}</p>
        </div>
        <div className="hidden size-10 shrink-0 place-items-center rounded-full bg-primary/10 text-primary sm:grid [&_svg]:size-5">
          {icon}
        </div>
      </CardContent>
    </Card>
  );
}
