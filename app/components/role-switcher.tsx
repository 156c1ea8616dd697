import { Form, useSubmit } from "react-router";
import { Repeat } from "lucide-react";
import { Select } from "~/components/ui/input";
import { Button } from "~/components/ui/button";

/**
 * The header's switcher for a person with more than one role or institute (issue 40): each
 * option is an institute and a role; choosing one posts to /switch-role, which remembers it for
 * the session and opens that role's area. Works without JS (the Go button).
 */
export function RoleSwitcher({
  options,
  current,
}: {
  options: { key: string; label: string }[];
  current: string | null;
}) {
  const submit = useSubmit();
  return (
    <Form method="post" action="/switch-role" className="flex items-center gap-2">
      <Repeat className="size-4 text-muted-foreground" aria-hidden />
      <Select
        name="as"
        aria-label="Your role"
        defaultValue={current ?? ""}
        className="h-9 max-w-[24rem]"
        onChange={(event) => submit(event.currentTarget.form)}
      >
        {current === null && (
          <option value="" disabled>
            Switch role…
          </option>
        )}
        {options.map((o) => (
          <option key={o.key} value={o.key}>
            {o.label}
          </option>
        ))}
      </Select>
      <noscript>
        <Button type="submit" size="sm" variant="outline">
          Go
        </Button>
      </noscript>
    </Form>
  );
}
