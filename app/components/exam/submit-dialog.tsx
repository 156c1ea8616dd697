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

/** The submit table, one row per section (mock-tests.md §2.6); the OMR sheet has no review states. */
export function SubmitSummaryTable({ rows, omr }: { rows: SummaryRow[]; omr?: boolean }) {
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
