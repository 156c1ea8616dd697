import { Form } from "react-router";
import { Award } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input, Select } from "~/components/ui/input";
import type { RankedTestJson } from "#common/validation/fee-scholarships.ts";

const SLAB_ROWS = 4;

/**
 * Scholarships by the institute's own admission-cum-scholarship test (issue 42 §2): a ranked mock
 * test, a plan and rank slabs (from–to → percent); empty slab rows are left out.
 */
export function ScholarshipForm({
  tests,
  plans,
  busy,
}: {
  tests: RankedTestJson[];
  plans: { _id: string; name: string }[];
  busy: boolean;
}) {
  if (plans.length === 0) return null;
  return (
    <Form method="post" className="grid gap-4 rounded-lg border p-4" aria-label="Scholarships from a test's ranks">
      <input type="hidden" name="intent" value="scholarship" />
      <h3 className="font-medium">Scholarships from a test's ranks</h3>
      {tests.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          No mock test of the institute has ranks yet: scholarships follow a test's rank list.
        </p>
      ) : (
        <>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Mock test">
              <Select name="testId" required defaultValue="">
                <option value="" disabled>
                  Choose a test
                </option>
                {tests.map((t) => (
                  <option key={t._id} value={t._id}>
                    {t.title} ({t.takers} ranked)
                  </option>
                ))}
              </Select>
            </Field>
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
          </div>
          <fieldset className="grid gap-2">
            <legend className="text-sm font-medium">Rank slabs</legend>
            {Array.from({ length: SLAB_ROWS }, (_, i) => (
              <div
                key={i}
                className="grid grid-cols-[auto_5.5rem_auto_5.5rem_auto_5.5rem_auto] items-center justify-start gap-2 text-sm"
              >
                Ranks
                <Input
                  name="slabFrom"
                  type="number"
                  min={1}
                  aria-label={`Slab ${i + 1}: first rank`}
                  required={i === 0}
                />
                to
                <Input name="slabTo" type="number" min={1} aria-label={`Slab ${i + 1}: last rank`} required={i === 0} />
                get
                <Input
                  name="slabPercent"
                  inputMode="decimal"
                  aria-label={`Slab ${i + 1}: percent`}
                  required={i === 0}
                />
                % off
              </div>
            ))}
          </fieldset>
          <p className="text-sm text-muted-foreground">
            Applied once per student who sat the test (their best rank), first in the stacking order, never past 100 %
            and never on what is already paid; you are recorded as the approver.
          </p>
          <div>
            <Button type="submit" variant="outline" disabled={busy}>
              <Award className="size-4" /> Apply scholarships
            </Button>
          </div>
        </>
      )}
    </Form>
  );
}
