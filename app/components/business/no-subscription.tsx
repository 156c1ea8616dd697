import { PageHeader } from "~/components/ui/page-header";
import { EmptyState } from "~/components/ui/empty-state";
import { ButtonLink } from "~/components/ui/button";

/** What a business page that needs an institute shows before the owner has one: the way to a plan. */
export function NoSubscription({ title }: { title: string }) {
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title={title} />
      <EmptyState title="No active subscription found.">
        <ButtonLink to="/business/subscription-plan">View Plans</ButtonLink>
      </EmptyState>
    </div>
  );
}
