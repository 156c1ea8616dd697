import { Form } from "react-router";
import { Upload } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input, Select } from "~/components/ui/input";

/**
 * A plan assigned to many students at once (issue 42 §2): the institute's list as a CSV in the
 * batch admission's format (name,email,phone with a header row). A bad row refuses the whole file,
 * each bad row named, so nobody is half-assigned.
 */
export function AssignCsvForm({ plans, busy }: { plans: { _id: string; name: string }[]; busy: boolean }) {
  if (plans.length === 0) return null;
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      className="grid gap-4 rounded-lg border p-4 sm:grid-cols-3"
      aria-label="Many students from a CSV"
    >
      <input type="hidden" name="intent" value="assign-csv" />
      <h3 className="font-medium sm:col-span-3">Assign a plan to many students from a CSV</h3>
      <Field label="Fee plan">
        <Select name="feePlanId" required defaultValue="">
          <option value="" disabled>
            Choose a plan
          </option>
          {plans.map((p) => (
            <option key={p._id} value={p._id}>
              {p.name}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Students (CSV)" hint="name,email,phone with a header row, as for batch admission">
        <Input name="file" type="file" accept=".csv,text/csv" required />
      </Field>
      <div className="flex items-end">
        <Button type="submit" variant="outline" disabled={busy}>
          <Upload className="size-4" /> Assign to everyone listed
        </Button>
      </div>
    </Form>
  );
}
