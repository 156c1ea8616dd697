import { Compass } from "lucide-react";
import type { LearningItemJson } from "#common/content-types.ts";
import { useFreshLinks } from "~/lib/use-fresh-links";
import { ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { EnrolProvider, type CheckoutConfig } from "./enrol";
import { ContentCard } from "./content-card";
import { holds } from "./content-actions";

/**
 * A student page listing one kind of content (Live Classes, Course List, Study Materials) as
 * cards with their actions, enrolment included; links are kept fresh while it stays open.
 */
export function LearningGrid({
  title,
  description,
  items,
  checkout,
  empty,
  actions,
}: {
  title: string;
  description: string;
  items: LearningItemJson[];
  checkout: CheckoutConfig;
  empty: string;
  actions: (item: LearningItemJson) => React.ReactNode;
}) {
  useFreshLinks(
    items.map((i) => i.linkExpiresAt),
    items.map((i) => (holds(i) ? i.liveOpensAt : null)),
  );
  return (
    <EnrolProvider checkout={checkout}>
      <div className="mx-auto max-w-6xl">
        <PageHeader
          title={title}
          description={description}
          actions={
            <ButtonLink to="/catalog" variant="outline" size="sm">
              <Compass className="size-4" aria-hidden /> Browse Catalog
            </ButtonLink>
          }
        />
        {items.length === 0 ? (
          <EmptyState title={empty} />
        ) : (
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {items.map((item) => (
              <ContentCard key={item._id} item={item} headingLevel={2}>
                {actions(item)}
              </ContentCard>
            ))}
          </div>
        )}
      </div>
    </EnrolProvider>
  );
}
