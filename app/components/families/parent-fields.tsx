import { Field } from "~/components/ui/field";
import { Input, Select } from "~/components/ui/input";
import { Badge } from "~/components/ui/badge";
import { GUARDIAN_RELATIONS, GUARDIAN_STATUS_LABELS, RELATION_LABELS, type GuardianJson } from "#common/family.ts";

/** A parent link's status as a badge: linked green, waiting amber, ended (declined, withdrawn) red. */
const TONES = {
  invited: "warning",
  active: "success",
  declined: "destructive",
  withdrawn: "destructive",
  removed: "muted",
} as const;

export function GuardianStatusBadge({ parent }: { parent: Pick<GuardianJson, "status" | "expired"> }) {
  return parent.expired ? (
    <Badge tone="muted">Invitation expired</Badge>
  ) : (
    <Badge tone={TONES[parent.status]}>{GUARDIAN_STATUS_LABELS[parent.status]}</Badge>
  );
}

/**
 * The parent to invite: name, relation and mobile number (`ParentInviteInput`), for the student's
 * My parents card and the institute's Students page alike; `errors` shows a refusal at its field.
 */
export function ParentFields({
  errors = {},
  phoneHint,
}: {
  errors?: Partial<Record<"name" | "relation" | "phone", string>>;
  phoneHint?: string;
}) {
  return (
    <>
      <Field label="Parent's name" error={errors.name}>
        <Input name="name" autoComplete="off" required />
      </Field>
      <Field label="Relation" error={errors.relation}>
        <Select name="relation" required defaultValue="mother">
          {GUARDIAN_RELATIONS.map((r) => (
            <option key={r} value={r}>
              {RELATION_LABELS[r]}
            </option>
          ))}
        </Select>
      </Field>
      <Field label="Mobile number" hint={phoneHint} error={errors.phone}>
        <Input name="phone" type="tel" inputMode="tel" autoComplete="off" placeholder="+91 98765 43210" required />
      </Field>
    </>
  );
}
