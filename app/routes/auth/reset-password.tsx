import { data, Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/reset-password";
import { getRequestContext } from "~/lib/context.server";
import { resetPassword } from "~/lib/auth-actions.server";
import { flashToastCookie } from "~/lib/toast.server";
import { RESET_TEXTS } from "#common/validation/password-reset.ts";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { PasswordInput } from "~/components/ui/password-input";
import { CardPage } from "~/components/shell/card-page";
import { PASSWORD_MISMATCH } from "~/components/auth-fields";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Choose a new password | ${loaderData?.brand ?? "Pathshala"}` },
  { name: "robots", content: "noindex" },
  // The token is in the address: it is never sent on to another site.
  { name: "referrer", content: "no-referrer" },
];

export function loader({ context, request }: Route.LoaderArgs) {
  const { site } = getRequestContext(context);
  return {
    brand: site.kind === "tenant" ? site.center.instituteName : null,
    token: (new URL(request.url).searchParams.get("token") ?? "").slice(0, 200),
  };
}

const SIGN_IN: Record<string, string> = {
  admin: "/login",
  student: "/auth?role=student&mode=login",
  creator: "/auth?role=creator&mode=login",
  business: "/auth?role=business&mode=login",
};

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const password = form.get("password");
  if (password !== form.get("confirmPassword"))
    return data({ ok: false as const, error: PASSWORD_MISMATCH.description }, { status: 400 });
  const result = await resetPassword(context, { token: form.get("token"), password });
  if (!result.ok) return result.response;
  throw redirect(SIGN_IN[result.value.role] ?? "/auth?mode=login", {
    headers: {
      "Set-Cookie": flashToastCookie({ kind: "success", title: "Password changed", description: RESET_TEXTS.done }),
    },
  });
}

/** The page a reset link opens: a new password, twice. */
export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const submitting = useNavigation().state === "submitting";
  const error = actionData && !actionData.ok ? actionData.error : null;
  return (
    <CardPage brand={loaderData.brand ? <span className="font-semibold">{loaderData.brand}</span> : undefined}>
      <h1 className="text-2xl font-semibold tracking-tight">Choose a new password</h1>
      {!loaderData.token ? (
        <p role="alert" className="mt-6 rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {RESET_TEXTS.invalid}
        </p>
      ) : (
        <Form method="post" replace className="mt-6 grid gap-4">
          <input type="hidden" name="token" value={loaderData.token} />
          <Field label="New password" hint="At least 8 characters.">
            <PasswordInput name="password" autoComplete="new-password" required minLength={8} />
          </Field>
          <Field label="Confirm new password">
            <PasswordInput name="confirmPassword" autoComplete="new-password" required />
          </Field>
          {error && (
            <p role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
              {error}
            </p>
          )}
          <Button type="submit" size="lg" disabled={submitting}>
            {submitting ? "Saving..." : "Save new password"}
          </Button>
        </Form>
      )}
      {(!loaderData.token || error === RESET_TEXTS.invalid) && (
        <p className="mt-6 text-sm">
          <Link to="/forgot-password" className="text-primary underline-offset-4 hover:underline">
            Ask for a new link
          </Link>
        </p>
      )}
    </CardPage>
  );
}
