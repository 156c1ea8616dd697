import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { DEFAULTER_POLICY_HEADING } from "#common/validation/fee-settings.ts";

/** What the institute's own written policy says a defaulter loses (issue 42 §5), shown to the student as written. */
export function DefaulterPolicies({ policies }: { policies: (string | null)[] }) {
  const written = [...new Set(policies.filter((p): p is string => Boolean(p)))];
  if (written.length === 0) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{DEFAULTER_POLICY_HEADING}</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-2 text-sm">
        {written.map((policy) => (
          <p key={policy} className="whitespace-pre-line">
            {policy}
          </p>
        ))}
      </CardContent>
    </Card>
  );
}
