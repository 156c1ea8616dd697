import { isRouteErrorResponse, Link, useLocation, useNavigate } from "react-router";
import { ArrowLeft, ExternalLink, FileStack } from "lucide-react";
import type { Route } from "./+types/content-detail";
import { creatorContext, linkIfAllowed, orRespond, toContentJson } from "~/lib/creator.server";
import { creatorPaths } from "~/lib/creator-paths";
import { useFreshLinks } from "~/lib/use-fresh-links";
import { formatBytes, formatDate, formatPrice, formatRupees } from "#common/format.ts";
import { CONTENT_TYPE_LABELS } from "#common/validation/content.ts";
import { Badge } from "~/components/ui/badge";
import { ButtonLink, buttonClasses } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { EmptyState } from "~/components/ui/empty-state";
import { TYPE_ICONS, formatClassTime } from "~/components/learning/content-card";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.content.title ?? "Content"} | Creator Studio` },
];

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const { services, creator } = await creatorContext(context, request);
  const row = await orRespond(() => services.content.getForOwner(creator, params.id));
  const [link, [sales]] = await Promise.all([
    linkIfAllowed(services, creator, row),
    services.sales.rows(row.creatorId, row.id),
  ]);
  return {
    content: toContentJson(row, link?.url ?? null),
    linkExpiresAt: link?.expiresAt.toISOString() ?? null,
    sales: sales ?? { totalSales: 0, totalEarnings: 0 },
  };
}

export default function ContentDetail({ loaderData }: Route.ComponentProps) {
  const { content, sales, linkExpiresAt } = loaderData;
  const paths = creatorPaths(useLocation().pathname);
  const navigate = useNavigate();
  const Icon = TYPE_ICONS[content.type];
  // Signed links are short-lived: fetch a fresh one shortly before this one runs out.
  useFreshLinks([linkExpiresAt]);

  return (
    <div className="mx-auto max-w-4xl">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <a
          href={paths.contents}
          onClick={(e) => {
            // Back where the creator came from; a direct visit goes to the list.
            if (window.history.length > 1) {
              e.preventDefault();
              navigate(-1);
            }
          }}
          className={buttonClasses("ghost", "sm")}
        >
          <ArrowLeft className="size-4" aria-hidden /> Back
        </a>
        <ButtonLink to={paths.contents} variant="outline" size="sm">
          <FileStack className="size-4" aria-hidden /> Manage Contents
        </ButtonLink>
      </div>
      <Card className="overflow-hidden">
        <div className="grid md:grid-cols-[280px_1fr]">
          <div className="grid aspect-video place-items-center bg-muted md:aspect-auto md:min-h-64">
            {content.thumbnailUrl ? (
              <img src={content.thumbnailUrl} alt="" className="h-full w-full object-cover" />
            ) : (
              <Icon className="size-12 text-muted-foreground" aria-hidden />
            )}
          </div>
          <CardContent className="grid content-start gap-4 p-6">
            <div className="flex flex-wrap items-center gap-2">
              <Badge tone="muted">
                <Icon className="size-3.5" aria-hidden /> {CONTENT_TYPE_LABELS[content.type]}
              </Badge>
              <Badge tone={content.isActive ? "success" : "muted"}>{content.isActive ? "Active" : "Inactive"}</Badge>
            </div>
            <h1 className="text-2xl font-semibold tracking-tight">{content.title}</h1>
            <p className="text-2xl font-semibold text-primary">{formatPrice(content.price)}</p>
            {content.description ? (
              <p className="whitespace-pre-line text-sm leading-relaxed text-muted-foreground">{content.description}</p>
            ) : (
              <p className="text-sm italic text-muted-foreground">No description.</p>
            )}
            <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[9rem_1fr]">
              {content.type === "live" && (
                <>
                  <dt className="text-muted-foreground">Class time</dt>
                  <dd>{content.liveStartsAt ? `${formatClassTime(content.liveStartsAt)} IST` : "Not scheduled"}</dd>
                </>
              )}
              <dt className="text-muted-foreground">Business</dt>
              <dd>{content.businessName ?? "Unassigned"}</dd>
              {content.file && (
                <>
                  <dt className="text-muted-foreground">File</dt>
                  <dd className="break-all">
                    {content.file.name} · {formatBytes(content.file.size)}
                  </dd>
                </>
              )}
              <dt className="text-muted-foreground">Orders</dt>
              <dd className="tabular-nums">
                {sales.totalSales} · {formatRupees(sales.totalEarnings)} earned
              </dd>
              <dt className="text-muted-foreground">Published</dt>
              <dd>{formatDate(content.createdAt)}</dd>
            </dl>
            <div className="flex flex-wrap gap-2 pt-2">
              {content.type === "live"
                ? content.liveLink && (
                    <a href={content.liveLink} target="_blank" rel="noopener noreferrer" className={buttonClasses()}>
                      <ExternalLink className="size-4" aria-hidden /> Open live link
                    </a>
                  )
                : content.fileUrl && (
                    <a href={content.fileUrl} target="_blank" rel="noopener" className={buttonClasses()}>
                      <ExternalLink className="size-4" aria-hidden /> Open file
                    </a>
                  )}
            </div>
          </CardContent>
        </div>
        {content.type === "video" && content.fileUrl && (
          <div className="border-t bg-black">
            <video
              key={content.fileUrl}
              src={content.fileUrl}
              controls
              preload="metadata"
              className="mx-auto max-h-[70vh] w-full"
              aria-label={`Preview of ${content.title}`}
            />
          </div>
        )}
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const paths = creatorPaths(useLocation().pathname);
  const message =
    isRouteErrorResponse(error) && typeof error.data?.message === "string"
      ? error.data.message
      : "This content could not be loaded.";
  return (
    <div className="mx-auto max-w-xl pt-10">
      <EmptyState icon={<FileStack />} title={message}>
        <Link to={paths.contents} className={buttonClasses("outline")}>
          Manage Contents
        </Link>
      </EmptyState>
    </div>
  );
}
