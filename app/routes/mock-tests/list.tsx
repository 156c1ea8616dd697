import { Link } from "react-router";
import { ClipboardCheck, FilePlus2, Library } from "lucide-react";
import type { Route } from "./+types/list";
import { testsAreaContext } from "~/lib/mock-tests/area.server";
import { PATTERNS, type PatternId } from "#common/mock-tests/patterns.ts";
import { formatDate, formatPrice } from "#common/format.ts";
import { TestStatusBadge } from "~/components/mock-tests/test-status";
import { ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { PageHeader } from "~/components/ui/page-header";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";

export const meta: Route.MetaFunction = () => [{ title: "Tests" }];

/** The tests of the viewer and their teams, drafts included, newest first. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, reader } = await testsAreaContext(context, request);
  const tests = await services.mockTests.listForTeam(reader);
  return {
    tests: tests.map((t) => ({
      _id: t._id,
      title: t.title,
      status: t.status,
      pattern: PATTERNS[t.pattern as PatternId]?.name ?? t.pattern,
      questionCount: t.questionCount,
      maxScore: t.maxScore,
      businessName: t.businessName,
      price: t.price,
      opensAt: t.opensAt,
      closesAt: t.closesAt,
    })),
  };
}

export default function TestsList({ loaderData }: Route.ComponentProps) {
  const { tests } = loaderData;
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Tests"
        description="Mock tests of your team: drafts, published and closed."
        actions={
          <>
            <ButtonLink to="questions" variant="outline">
              <Library className="size-4" aria-hidden /> Question bank
            </ButtonLink>
            <ButtonLink to="new">
              <FilePlus2 className="size-4" aria-hidden /> New test
            </ButtonLink>
          </>
        }
      />
      {tests.length === 0 ? (
        <EmptyState
          icon={<ClipboardCheck />}
          title="No tests yet. Fill your question bank, then build a test from a pattern."
        >
          <ButtonLink to="new">New test</ButtonLink>
        </EmptyState>
      ) : (
        <Table>
          <THead>
            <tr>
              <Th>Test</Th>
              <Th>Status</Th>
              <Th>Questions</Th>
              <Th className="hidden md:table-cell">Institute</Th>
              <Th className="hidden md:table-cell">Window</Th>
            </tr>
          </THead>
          <TBody>
            {tests.map((t) => (
              <Tr key={t._id}>
                <Td>
                  <Link to={t._id} className="font-medium hover:text-primary hover:underline">
                    {t.title}
                  </Link>
                  <span className="block text-xs text-muted-foreground">
                    {t.pattern} · {formatPrice(t.price)}
                  </span>
                </Td>
                <Td>
                  <TestStatusBadge status={t.status} />
                </Td>
                <Td className="tabular-nums">
                  {t.questionCount} · {t.maxScore} marks
                </Td>
                <Td className="hidden md:table-cell">{t.businessName ?? "—"}</Td>
                <Td className="hidden text-sm md:table-cell">
                  {t.opensAt || t.closesAt
                    ? `${t.opensAt ? formatDate(t.opensAt) : "Now"} – ${t.closesAt ? formatDate(t.closesAt) : "open-ended"}`
                    : "Anytime"}
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
    </div>
  );
}
