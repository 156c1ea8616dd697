import type { SummaryRow } from "#common/mock-tests/exam-state.ts";
import { Dialog, DialogContent } from "~/components/ui/dialog";
import { Table, TBody, Td, THead, Tr } from "~/components/ui/table";
import { buttonClasses } from "~/components/ui/button";

export const SUBMIT_QUESTION =
  "Are you sure you want to submit for final marking? No changes will be allowed after submission.";

/** A column heading that may wrap: the spec's long headings must fit a phone. */
function Th({ className, ...props }: React.ThHTMLAttributes<HTMLTableCellElement>) {
  return (
    <th
      scope="col"
      className={`px-3 py-2 align-bottom text-xs font-medium text-muted-foreground sm:text-sm ${className ?? ""}`}
      {...props}
    />
  );
}

/** The six counts of a section in the table's order and words (the OMR sheet: questions, answered, not answered). */
function countsOf({ questions, counts }: SummaryRow, omr?: boolean): [string, number][] {
  if (omr)
    return [
      ["Questions", questions],
      ["Answered", counts.answered + counts["answered-marked"]],
      ["Not Answered", counts["not-answered"] + counts["not-visited"] + counts.marked],
    ];
  return [
    ["Questions", questions],
    ["Answered", counts.answered],
    ["Not Answered", counts["not-answered"]],
    ["Marked for Review", counts.marked],
    ["Answered & Marked for Review", counts["answered-marked"]],
    ["Not Visited", counts["not-visited"]],
  ];
}

/**
 * The submit table, one row per section (mock-tests.md §2.6); the OMR sheet has no review states.
 * A phone is too narrow for seven columns: there each section is a card with its six counts, so
 * none is cut off or hidden behind a sideways scroll.
 */
export function SubmitSummaryTable({ rows, omr }: { rows: SummaryRow[]; omr?: boolean }) {
  return (
    <>
      <ul className="grid gap-2 sm:hidden" aria-label="Summary by section">
        {rows.map((row) => (
          <li key={row.section} className="rounded-lg border p-3">
            <h3 className="mb-2 text-sm font-semibold">{row.section}</h3>
            <dl className="grid grid-cols-2 gap-x-3 gap-y-1.5 text-sm">
              {countsOf(row, omr).map(([label, value]) => (
                <div key={label} className="flex items-baseline justify-between gap-2 border-b border-dashed pb-1">
                  <dt className="text-muted-foreground">{label}</dt>
                  <dd className="font-semibold tabular-nums">{value}</dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
      <div className="hidden sm:block">
        <SectionTable rows={rows} omr={omr} />
      </div>
    </>
  );
}

function SectionTable({ rows, omr }: { rows: SummaryRow[]; omr?: boolean }) {
  return (
    <Table>
      <THead>
        <tr>
          <Th className="text-left">Section</Th>
          <Th className="text-right">Questions</Th>
          <Th className="text-right">Answered</Th>
          <Th className="text-right">Not Answered</Th>
          {!omr && (
            <>
              <Th className="text-right">Marked for Review</Th>
              <Th className="text-right">Answered &amp; Marked for Review</Th>
              <Th className="text-right">Not Visited</Th>
            </>
          )}
        </tr>
      </THead>
      <TBody>
        {rows.map(({ section, questions, counts }) => (
          <Tr key={section}>
            <th scope="row" className="px-3 py-2 text-left font-medium">
              {section}
            </th>
            <Td className="text-right tabular-nums">{questions}</Td>
            {omr ? (
              <>
                <Td className="text-right tabular-nums">{counts.answered + counts["answered-marked"]}</Td>
                <Td className="text-right tabular-nums">
                  {counts["not-answered"] + counts["not-visited"] + counts.marked}
                </Td>
              </>
            ) : (
              <>
                <Td className="text-right tabular-nums">{counts.answered}</Td>
                <Td className="text-right tabular-nums">{counts["not-answered"]}</Td>
                <Td className="text-right tabular-nums">{counts.marked}</Td>
                <Td className="text-right tabular-nums">{counts["answered-marked"]}</Td>
                <Td className="text-right tabular-nums">{counts["not-visited"]}</Td>
              </>
            )}
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}

/** What the submit dialog shows: the table, then the NTA's question with Yes / No. */
export function SubmitConfirmation({
  rows,
  omr,
  onYes,
  onNo,
  busy,
}: {
  rows: SummaryRow[];
  omr?: boolean;
  onYes: () => void;
  onNo: () => void;
  busy?: boolean;
}) {
  return (
    <div className="grid gap-4">
      <SubmitSummaryTable rows={rows} omr={omr} />
      <p className="font-medium">{SUBMIT_QUESTION}</p>
      <div className="flex justify-end gap-2">
        <button type="button" className={buttonClasses("outline", "md", "min-w-20")} onClick={onNo} disabled={busy}>
          No
        </button>
        <button type="button" className={buttonClasses("default", "md", "min-w-20")} onClick={onYes} disabled={busy}>
          Yes
        </button>
      </div>
    </div>
  );
}

export function SubmitDialog({
  open,
  onOpenChange,
  ...confirmation
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
} & Omit<React.ComponentProps<typeof SubmitConfirmation>, "onNo">) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Exam Summary" className="sm:max-w-4xl">
        <SubmitConfirmation {...confirmation} onNo={() => onOpenChange(false)} />
      </DialogContent>
    </Dialog>
  );
}
