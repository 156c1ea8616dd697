import { Wallet } from "lucide-react";
import type { Route } from "./+types/fees";
import { getRequestContext } from "~/lib/context.server";
import { getViewer } from "~/lib/session.server";
import { feeAccountsOf } from "~/lib/fee-accounts.server";
import { checkoutConfig } from "~/lib/learning.server";
import { PageHeader } from "~/components/ui/page-header";
import { EmptyState } from "~/components/ui/empty-state";
import { DefaulterPolicies } from "~/components/fees/defaulter-policies";
import { FeeAccountCard } from "~/components/fees/fee-account-card";

export const meta: Route.MetaFunction = () => [{ title: "Fees | Student" }];

/** The signed-in student's fee accounts (on an institute's site, that institute's) with their receipts. */
export async function loader({ context }: Route.LoaderArgs) {
  const { services, site } = getRequestContext(context);
  const viewer = getViewer(context)!;
  const { accounts, policies } = await feeAccountsOf(
    services,
    viewer.id,
    site.kind === "tenant" ? site.center.id : null,
  );
  return { accounts, policies, checkout: checkoutConfig(context) };
}

export default function StudentFees({ loaderData }: Route.ComponentProps) {
  const { accounts, policies, checkout } = loaderData;
  return (
    <div className="mx-auto grid max-w-5xl grid-cols-1 gap-6">
      <PageHeader title="Fees" description="What you owe your institute, by when, and every payment's receipt." />
      {accounts.length === 0 && <EmptyState icon={<Wallet />} title="No fees to show." />}
      {accounts.map((view) => (
        <FeeAccountCard key={view.account._id} view={view} checkout={checkout} />
      ))}
      <DefaulterPolicies policies={policies} />
    </div>
  );
}
