import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { formatDate, formatRupees } from "#common/format.ts";
import type { FeeAccountJson, FeeEntryJson } from "#common/validation/fees.ts";

/** Each ledger entry in the product's words, and which way it moves what is owed. */
const ENTRY_LABELS: Record<FeeEntryJson["kind"], string> = {
  due: "Due",
  discount: "Discount",
  payment: "Payment",
  "late-fee": "Late fee",
  waiver: "Waiver",
  reversal: "Payment reversed",
  charge: "Charge",
  refund: "Refunded",
  cancellation: "Not charged (left)",
};
const OWED_MORE = new Set<FeeEntryJson["kind"]>(["due", "late-fee", "reversal", "charge", "refund"]);

/**
 * A fee account's statement (issue 42 §7): every due, discount, payment, late fee, waiver,
 * reversal and charge in order, one click away for the student and the accountant alike.
 */
export function FeeStatement({ account }: { account: FeeAccountJson }) {
  if (!account.ledger) return null;
  return (
    <details>
      <summary className="cursor-pointer text-sm font-medium">
        Statement of account ({account.ledger.length} entries)
      </summary>
      <Table aria-label={`Statement of ${account.planName}`}>
        <THead>
          <tr>
            <Th>When</Th>
            <Th>Entry</Th>
            <Th className="text-right">Owed</Th>
            <Th className="text-right">Paid or taken off</Th>
            <Th>Why</Th>
            <Th>By</Th>
          </tr>
        </THead>
        <TBody>
          {account.ledger.map((e) => (
            <Tr key={e._id}>
              <Td>{formatDate(e.at)}</Td>
              <Td>
                {ENTRY_LABELS[e.kind]}
                {e.discount && ` (${e.discount.kind.replace("-", " ")})`}
                {" · "}
                {account.dues.find((d) => d._id === e.dueId)?.label}
              </Td>
              <Td className="text-right tabular-nums">{OWED_MORE.has(e.kind) ? formatRupees(e.amount) : ""}</Td>
              <Td className="text-right tabular-nums">{OWED_MORE.has(e.kind) ? "" : formatRupees(e.amount)}</Td>
              <Td>{e.reason ?? ""}</Td>
              <Td>{e.by ?? ""}</Td>
            </Tr>
          ))}
        </TBody>
      </Table>
    </details>
  );
}
