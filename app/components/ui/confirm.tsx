import { useSyncExternalStore } from "react";
import { Form } from "react-router";
import { AlertDialog as A } from "radix-ui";
import { buttonClasses } from "./button";

/** Asks before a destructive action; `onConfirm` runs only on the explicit button. */
export function Confirm({
  trigger,
  title,
  description,
  confirmLabel = "Delete",
  onConfirm,
}: {
  trigger: React.ReactNode;
  title: string;
  description?: string;
  confirmLabel?: string;
  onConfirm: () => void;
}) {
  return (
    <A.Root>
      <A.Trigger asChild>{trigger}</A.Trigger>
      <A.Portal>
        <A.Overlay className="fixed inset-0 z-50 bg-black/50" />
        <A.Content className="fixed left-1/2 top-1/2 z-50 grid w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border bg-card p-6 shadow-xl">
          <A.Title className="text-lg font-semibold">{title}</A.Title>
          {description ? (
            <A.Description className="text-sm text-muted-foreground">{description}</A.Description>
          ) : (
            <A.Description className="sr-only">{title}</A.Description>
          )}
          <div className="flex justify-end gap-2">
            <A.Cancel className={buttonClasses("outline")}>Cancel</A.Cancel>
            <A.Action className={buttonClasses("destructive")} onClick={onConfirm}>
              {confirmLabel}
            </A.Action>
          </div>
        </A.Content>
      </A.Portal>
    </A.Root>
  );
}

const noSubscription = () => () => {};

/**
 * A form's submit button that asks first once the page runs JavaScript; before that (or
 * without it) the button posts the form directly, so the page works either way. `button` draws
 * the button for the type it must have; `fields` are the form's hidden values, posted by
 * `submit` after a yes.
 */
export function ConfirmedSubmit({
  button,
  fields,
  submit,
  ...ask
}: {
  button: (type: "button" | "submit") => React.ReactElement;
  fields: Record<string, string>;
  submit: (fields: Record<string, string>) => void;
  title: string;
  description: string;
  confirmLabel: string;
}) {
  // False while rendering on the server (and so without JavaScript), true once hydrated.
  const interactive = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  return (
    <Form method="post" className="inline-flex">
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {interactive ? (
        <Confirm trigger={button("button")} {...ask} onConfirm={() => submit(fields)} />
      ) : (
        button("submit")
      )}
    </Form>
  );
}
