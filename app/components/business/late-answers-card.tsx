import { Form } from "react-router";
import {
  LATE_ANSWER_POLICIES,
  LATE_ANSWER_SETTING_TEXTS as TEXTS,
  type LateAnswerPolicy,
} from "#common/mock-tests/late-answers.ts";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input, Select } from "~/components/ui/input";

/**
 * The institute's rule for answers made before a sitting's deadline that reach the server after it
 * (issue 38 §2, decision 0034): the grace period and whether they count. Posts intent "late-answers".
 */
export function LateAnswersCard({
  graceMinutes,
  policy,
  saving,
}: {
  graceMinutes: number;
  policy: LateAnswerPolicy;
  saving: boolean;
}) {
  return (
    <Card id="late-answers">
      <CardHeader>
        <CardTitle as="h2">{TEXTS.title}</CardTitle>
        <CardDescription>{TEXTS.description}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-4 sm:grid-cols-[16rem_1fr_auto] sm:items-end">
          <input type="hidden" name="intent" value="late-answers" />
          <Field label={TEXTS.grace}>
            <Input type="number" name="graceMinutes" min={0} max={60} step={1} defaultValue={graceMinutes} required />
          </Field>
          <Field label={TEXTS.policy}>
            <Select name="policy" defaultValue={policy}>
              {LATE_ANSWER_POLICIES.map((p) => (
                <option key={p} value={p}>
                  {TEXTS.policies[p]}
                </option>
              ))}
            </Select>
          </Field>
          <Button type="submit" variant="outline" disabled={saving}>
            {TEXTS.save}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
