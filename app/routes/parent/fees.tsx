import { Link } from "react-router";
import { Wallet } from "lucide-react";
import type { Route } from "./+types/fees";
import { loadHouseholdFees } from "~/lib/parent/fees.server";
import { PageHeader } from "~/components/ui/page-header";
import { Card, CardContent } from "~/components/ui/card";
import { Badge } from "~/components/ui/badge";
import { EmptyState } from "~/components/ui/empty-state";
import { PayDueButton } from "~/components/fees/pay-due";
import { DefaulterPolicies } from "~/components/fees/defaulter-policies";
import { formatDate, formatRupees } from "#common/format.ts";
import { PARENT_TEXTS } from "#common/parent-area.ts";

export const meta: Route.MetaFunction = () => [{ title: "Fees | Parent" }];

export const loader = ({ context }: Route.LoaderArgs) => loadHouseholdFees(context);

/** One due per row: stacked on a phone, five columns from `sm` up. */
const ROW = "items-center px-4 sm:grid-cols-[minmax(0,1.2fr)_minmax(0,1.4fr)_minmax(0,1.2fr)_6rem_9rem]";

/**
 * The household's fees (issue 42 §7): every child's dues in one list, with what the household owes
 * in all and now, and Pay on each due that owes. Each child's statement and receipts are on their page.
 */
export default function ParentFees({ loaderData }: Route.ComponentProps) {
  const { children, dues, total, owedNow, policies, checkout } = loaderData;
  return (
    <div className="mx-auto grid max-w-5xl grid-cols-1 gap-6">
      <PageHeader title="Fees" description="Your children's fees together: what is owed, by when, and Pay." />
      {dues.length === 0 ? (
        <EmptyState icon={<Wallet />} title={PARENT_TEXTS.noFees} />
      ) : (
        <>
          <div className="grid grid-cols-2 gap-3 sm:gap-4">
            <Figure label="Owed in all" value={formatRupees(total)} id="total" />
            <Figure label="Owed now" value={formatRupees(owedNow)} id="now" />
          </div>
          <div className="overflow-hidden rounded-lg border">
            <div
              aria-hidden
              className={`${ROW} hidden gap-4 bg-muted/60 py-2 text-sm font-medium text-muted-foreground sm:grid`}
            >
              <span>Child</span>
              <span>Due</span>
              <span>Last date</span>
              <span className="text-right">Balance</span>
              <span className="text-right">Pay online</span>
            </div>
            <ul aria-label="Household dues" className="divide-y">
              {dues.map(({ due, partial, child, planName }) => (
                <li key={due._id} className={`${ROW} grid gap-1 py-3 text-sm sm:gap-4`}>
                  <div>
                    <div className="font-medium">{child.name}</div>
                    <div className="text-xs text-muted-foreground">{child.institute}</div>
                  </div>
                  <div>
                    <div>{due.label}</div>
                    <div className="text-xs text-muted-foreground">{planName}</div>
                  </div>
                  <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <span>
                      <span className="sm:hidden">Last date </span>
                      {formatDate(due.dueOn)}
                    </span>
                    {due.overdueDays > 0 && due.balance > 0 && (
                      <Badge tone="destructive">{due.overdueDays} days overdue</Badge>
                    )}
                  </div>
                  <div className="flex items-center justify-between gap-3 sm:contents">
                    <span className="font-semibold tabular-nums sm:text-right sm:font-normal">
                      {due.balance > 0 ? formatRupees(due.balance) : <Badge tone="success">Paid</Badge>}
                    </span>
                    <span>{due.balance > 0 && <PayDueButton due={due} checkout={checkout} partial={partial} />}</span>
                  </div>
                </li>
              ))}
            </ul>
          </div>
        </>
      )}
      {children.length > 0 && (
        <p className="text-sm text-muted-foreground">
          Statements and receipts:{" "}
          {children.map((c, i) => (
            <span key={c.linkId}>
              {i > 0 && " · "}
              <Link
                to={`/parent/children/${c.linkId}#fees-heading`}
                className="text-primary underline-offset-4 hover:underline"
              >
                {c.name}
              </Link>
            </span>
          ))}
        </p>
      )}
      <DefaulterPolicies policies={policies} />
    </div>
  );
}

function Figure({ label, value, id }: { label: string; value: string; id: string }) {
  return (
    <Card data-testid={`owed-${id}`}>
      <CardContent className="p-4 sm:p-5">
        <p className="text-sm text-muted-foreground">{label}</p>
        <p className="mt-1 text-2xl font-semibold tabular-nums">{value}</p>
      </CardContent>
    </Card>
  );
}
