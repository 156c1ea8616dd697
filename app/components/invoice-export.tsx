import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

/** From and to dates, then the CSV of a seller's invoices (GET /api/invoices/export) for an accountant. */
export function InvoiceExport({ centerId, children }: { centerId?: string; children: React.ReactNode }) {
  return (
    <form method="get" action="/api/invoices/export" className="flex flex-wrap items-end gap-3">
      {centerId && <input type="hidden" name="centerId" value={centerId} />}
      <Field label="From" hint="Blank: from the first.">
        <Input type="date" name="from" />
      </Field>
      <Field label="To" hint="Blank: up to today.">
        <Input type="date" name="to" />
      </Field>
      <Button type="submit" variant="outline">
        {children}
      </Button>
    </form>
  );
}
