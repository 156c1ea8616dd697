import { forwardRef } from "react";
import { Download } from "lucide-react";
import { GST_STATES, INVOICE_TITLES, STATE_CODES } from "#common/gst.ts";
import { formatDate, formatRupees } from "#common/format.ts";
import type { InvoiceJson } from "#common/invoices.ts";
import { Select } from "~/components/ui/input";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";

/** India's states and union territories by GST code, "Not given" first. */
export const StateSelect = forwardRef<HTMLSelectElement, React.SelectHTMLAttributes<HTMLSelectElement>>(
  function StateSelect(props, ref) {
    return (
      <Select ref={ref} name="state" {...props}>
        <option value="">Not given</option>
        {STATE_CODES.map((code) => (
          <option key={code} value={code}>
            {GST_STATES[code]}
          </option>
        ))}
      </Select>
    );
  },
);

/** A PDF link to one document, named by its number. */
export function InvoiceLink({ invoice }: { invoice: Pick<InvoiceJson, "kind" | "number" | "pdf"> }) {
  return (
    <a
      href={invoice.pdf}
      target="_blank"
      rel="noreferrer"
      className="inline-flex items-center gap-1 whitespace-nowrap text-sm font-medium text-primary hover:underline"
      aria-label={`Download ${INVOICE_TITLES[invoice.kind]} ${invoice.number}`}
    >
      <Download className="size-3.5" aria-hidden /> {invoice.number}
    </a>
  );
}

/** A buyer's invoices, bills of supply and credit notes, each with its PDF. */
export function InvoiceTable({ invoices }: { invoices: InvoiceJson[] }) {
  return (
    <Table aria-label="Invoices">
      <THead>
        <tr>
          <Th>Date</Th>
          <Th>Document</Th>
          <Th>For</Th>
          <Th className="text-right">Amount</Th>
          <Th>PDF</Th>
        </tr>
      </THead>
      <TBody>
        {invoices.map((invoice) => (
          <Tr key={invoice.id}>
            <Td className="whitespace-nowrap">{formatDate(invoice.issuedAt)}</Td>
            <Td>
              {INVOICE_TITLES[invoice.kind]}
              {invoice.against && (
                <span className="block text-xs text-muted-foreground">against {invoice.against}</span>
              )}
            </Td>
            <Td>
              {invoice.description}
              <span className="block text-xs text-muted-foreground">from {invoice.sellerName}</span>
            </Td>
            <Td className="whitespace-nowrap text-right tabular-nums">
              {invoice.kind === "credit_note" ? "−" : ""}
              {formatRupees(invoice.total / 100)}
            </Td>
            <Td>
              <InvoiceLink invoice={invoice} />
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}
