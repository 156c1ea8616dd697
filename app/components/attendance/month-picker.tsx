import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";

/** The month an attendance page shows (`?month=YYYY-MM`), chosen without JavaScript too. */
export function MonthPicker({ month }: { month: string }) {
  return (
    <Form method="get" className="flex flex-wrap items-end gap-4">
      <Field label="Month">
        <Input name="month" type="month" defaultValue={month} required />
      </Field>
      <Button type="submit" variant="outline">
        Show
      </Button>
    </Form>
  );
}
