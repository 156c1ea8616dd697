import { Wallet } from "lucide-react";
import type { Route } from "./+types/child";
import { loadChild } from "~/lib/parent/child.server";
import { PageHeader } from "~/components/ui/page-header";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { EmptyState } from "~/components/ui/empty-state";
import { AttendanceByBatch } from "~/components/attendance/attendance-by-batch";
import { MonthPicker } from "~/components/attendance/month-picker";
import { FeeAccountCard } from "~/components/fees/fee-account-card";
import { DefaulterPolicies } from "~/components/fees/defaulter-policies";
import { formatDate } from "#common/format.ts";
import { PARENT_TEXTS } from "#common/parent-area.ts";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.child.name ?? "Child"} | Parent` },
];

export const loader = ({ context, request, params }: Route.LoaderArgs) => loadChild(context, request, params.linkId);

export default function ParentChild({ loaderData }: Route.ComponentProps) {
  const { child, month, report, sessions, results, fees, checkout } = loaderData;
  return (
    <div className="mx-auto grid max-w-5xl grid-cols-1 gap-6">
      <PageHeader title={child.name} description={child.institute} />

      <section aria-labelledby="attendance-heading" className="grid grid-cols-1 gap-4">
        <h2 id="attendance-heading" className="text-lg font-semibold">
          Attendance
        </h2>
        <p className="-mt-2 text-sm text-muted-foreground">
          Present and late count as attended; excused classes are left out.
        </p>
        <MonthPicker month={month} />
        <AttendanceByBatch report={report} sessions={sessions} />
      </section>

      <Card role="region" aria-labelledby="results-heading">
        <CardHeader>
          <CardTitle id="results-heading">Test results</CardTitle>
        </CardHeader>
        <CardContent>
          {results.length === 0 ? (
            <p className="text-sm text-muted-foreground">{PARENT_TEXTS.noResults}</p>
          ) : (
            <Table aria-label="Tests">
              <THead>
                <tr>
                  <Th>Test</Th>
                  <Th>Sat on</Th>
                  <Th className="text-right">Score</Th>
                  <Th className="text-right">Rank</Th>
                </tr>
              </THead>
              <TBody>
                {results.map((r) => (
                  <Tr key={r.attemptId}>
                    <Td>{r.title}</Td>
                    <Td>{formatDate(r.submittedAt)}</Td>
                    {r.score === null ? (
                      <Td colSpan={2} className="text-right text-muted-foreground">
                        {PARENT_TEXTS.notReleased}
                      </Td>
                    ) : (
                      <>
                        <Td className="text-right tabular-nums">{r.score}</Td>
                        <Td className="text-right tabular-nums">{r.rank ?? "—"}</Td>
                      </>
                    )}
                  </Tr>
                ))}
              </TBody>
            </Table>
          )}
        </CardContent>
      </Card>

      <section aria-labelledby="fees-heading" className="grid grid-cols-1 gap-4">
        <h2 id="fees-heading" className="text-lg font-semibold">
          Fees
        </h2>
        {fees.accounts.length === 0 && <EmptyState icon={<Wallet />} title={PARENT_TEXTS.noFees} />}
        {fees.accounts.map((view) => (
          <FeeAccountCard key={view.account._id} view={view} checkout={checkout} whose={child.name.split(" ")[0]} />
        ))}
        <DefaulterPolicies policies={fees.policies} />
      </section>
    </div>
  );
}
