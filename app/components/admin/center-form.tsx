import { forwardRef, useState } from "react";
import { Form } from "react-router";
import { centerFieldErrors, DEFAULT_SUPER_ADMIN_PATH, type SubCenterInput } from "#common/validation/centers.ts";
import { Input } from "~/components/ui/input";
import { Field } from "~/components/ui/field";
import { Button } from "~/components/ui/button";

type FieldName = keyof SubCenterInput;
const FIELDS: FieldName[] = ["name", "domain", "website", "superAdminPath"];

export interface CenterFormValues {
  name: string;
  domain: string;
  website: string;
  superAdminPath: string;
}

const NO_ERRORS: Partial<Record<FieldName, string>> = {};
const EMPTY: CenterFormValues = { name: "", domain: "", website: "", superAdminPath: DEFAULT_SUPER_ADMIN_PATH };

function valuesOf(form: HTMLFormElement): CenterFormValues {
  const data = new FormData(form);
  const get = (k: string) => String(data.get(k) ?? "");
  return { name: get("name"), domain: get("domain"), website: get("website"), superAdminPath: get("superAdminPath") };
}

/**
 * The sub center form (spec §5), used to add a center and to edit one. The browser checks with the
 * same valibot schema the server uses, so the messages match; the server checks again.
 */
export const CenterForm = forwardRef<
  HTMLFormElement,
  {
    /** Router `Form` (add page) or a fetcher's `Form` (edit dialog). */
    as?: React.ElementType;
    defaults?: Partial<CenterFormValues>;
    serverErrors?: Partial<Record<FieldName, string>>;
    submitting: boolean;
    submitLabel: string;
    submittingLabel: string;
    hidden?: Record<string, string>;
    footer?: React.ReactNode;
  }
>(function CenterForm(
  { as: FormTag = Form, defaults, serverErrors = NO_ERRORS, submitting, submitLabel, submittingLabel, hidden, footer },
  ref,
) {
  const initial = { ...EMPTY, ...defaults };
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [touched, setTouched] = useState<Partial<Record<FieldName, boolean>>>({});
  // A server message stands until that field is edited.
  const [edited, setEdited] = useState<Partial<Record<FieldName, boolean>>>({});
  const [serverShown, setServerShown] = useState(serverErrors);
  if (serverShown !== serverErrors) {
    setServerShown(serverErrors);
    setEdited({});
  }

  const check = (form: HTMLFormElement, only?: FieldName) => {
    const found = centerFieldErrors(valuesOf(form));
    setErrors((prev) => (only ? { ...prev, [only]: found[only] } : found));
    return found;
  };

  const shown = (field: FieldName) =>
    (touched[field] ? errors[field] : undefined) ?? (!edited[field] ? serverErrors[field] : undefined) ?? null;

  return (
    <FormTag
      ref={ref}
      method="post"
      noValidate
      className="grid gap-5"
      onSubmit={(event: React.FormEvent<HTMLFormElement>) => {
        const found = check(event.currentTarget);
        setTouched({ name: true, domain: true, website: true, superAdminPath: true });
        if (Object.keys(found).length > 0) {
          event.preventDefault();
          const firstBad = FIELDS.find((f) => found[f]);
          (event.currentTarget.elements.namedItem(firstBad ?? "name") as HTMLInputElement | null)?.focus();
        }
      }}
      onReset={() => {
        setErrors({});
        setTouched({});
      }}
    >
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Field label="Sub Center Name" error={shown("name")}>
        <Input
          name="name"
          defaultValue={initial.name}
          placeholder="Sunrise Academy – Salt Lake"
          maxLength={120}
          autoComplete="organization"
          onBlur={(e) => {
            setTouched((t) => ({ ...t, name: true }));
            check(e.currentTarget.form!, "name");
          }}
          onChange={(e) => {
            setEdited((x) => ({ ...x, name: true }));
            if (touched.name) check(e.currentTarget.form!, "name");
          }}
        />
      </Field>
      <Field
        label="Domain Name"
        hint="The domain the center's website is served on, e.g. saltlake.sunriseacademy.in."
        error={shown("domain")}
      >
        <Input
          name="domain"
          defaultValue={initial.domain}
          placeholder="yourinstitute.com"
          autoCapitalize="none"
          spellCheck={false}
          inputMode="url"
          onBlur={(e) => {
            setTouched((t) => ({ ...t, domain: true }));
            check(e.currentTarget.form!, "domain");
          }}
          onChange={(e) => {
            setEdited((x) => ({ ...x, domain: true }));
            if (touched.domain) check(e.currentTarget.form!, "domain");
          }}
        />
      </Field>
      <Field label="Website" hint="The full address, e.g. https://yourinstitute.com." error={shown("website")}>
        <Input
          name="website"
          type="url"
          defaultValue={initial.website}
          placeholder="https://yourinstitute.com"
          autoCapitalize="none"
          spellCheck={false}
          onBlur={(e) => {
            setTouched((t) => ({ ...t, website: true }));
            check(e.currentTarget.form!, "website");
          }}
          onChange={(e) => {
            setEdited((x) => ({ ...x, website: true }));
            if (touched.website) check(e.currentTarget.form!, "website");
          }}
        />
      </Field>
      <Field
        label="Super Admin Path"
        hint="Where the center's owner signs in on its website. Default /admin."
        error={shown("superAdminPath")}
      >
        <Input
          name="superAdminPath"
          defaultValue={initial.superAdminPath}
          autoCapitalize="none"
          spellCheck={false}
          onBlur={(e) => {
            setTouched((t) => ({ ...t, superAdminPath: true }));
            check(e.currentTarget.form!, "superAdminPath");
          }}
          onChange={(e) => {
            setEdited((x) => ({ ...x, superAdminPath: true }));
            if (touched.superAdminPath) check(e.currentTarget.form!, "superAdminPath");
          }}
        />
      </Field>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={submitting}>
          {submitting ? submittingLabel : submitLabel}
        </Button>
        {footer}
      </div>
    </FormTag>
  );
});
