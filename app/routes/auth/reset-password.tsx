import { Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/reset-password";
import { siteInstitute } from "~/lib/context.server";
import { mismatchedPasswords, resetPassword } from "~/lib/auth-actions.server";
import { signedOutDestination } from "~/lib/redirects";
import { flashToastCookie } from "~/lib/toast.server";
import { RESET_TEXTS } from "#common/validation/account-security.ts";
import { Button } from "~/components/ui/button";
import { CardPage } from "~/components/shell/card-page";
import { FormError } from "~/components/ui/form-message";
import { NewPasswordFields } from "~/components/auth-fields";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Choose a new password | ${loaderData?.brand ?? "Pathshala"}` },
  { name: "robots", content: "noindex" },
  // The token is in the address: it is never sent on to another site.
  { name: "referrer", content: "no-referrer" },
];

export function loader({ context, request }: Route.LoaderArgs) {
  return {
    brand: siteInstitute(context),
    token: (new URL(request.url).searchParams.get("token") ?? "").slice(0, 200),
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const mismatch = mismatchedPasswords(form);
  if (mismatch) return mismatch;
  const result = await resetPassword(context, { token: form.get("token"), password: form.get("password") });
  if (!result.ok) return result.response;
  // The sign-in of the account's role, on its sign-in tab.
  const signIn = signedOutDestination(result.value.role);
  throw redirect(result.value.role === "admin" ? signIn : `${signIn}&mode=login`, {
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
    <CardPage institute={loaderData.brand}>
      <h1 className="text-2xl font-semibold tracking-tight">Choose a new password</h1>
      {!loaderData.token ? (
        <FormError className="mt-6">{RESET_TEXTS.invalid}</FormError>
      ) : (
        <Form method="post" replace className="mt-6 grid gap-4">
          <input type="hidden" name="token" value={loaderData.token} />
          <NewPasswordFields />
          {error && <FormError>{error}</FormError>}
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
