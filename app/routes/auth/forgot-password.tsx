import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/forgot-password";
import { getRequestContext, siteInstitute } from "~/lib/context.server";
import { requestPasswordReset } from "~/lib/auth-actions.server";
import { RESET_TEXTS } from "#common/validation/account-security.ts";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Field } from "~/components/ui/field";
import { CardPage } from "~/components/shell/card-page";
import { FormError, FormNote } from "~/components/ui/form-message";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Forgot password | ${loaderData?.brand ?? "Pathshala"}` },
  { name: "robots", content: "noindex" },
];

export function loader({ context, request }: Route.LoaderArgs) {
  const email = new URL(request.url).searchParams.get("email") ?? "";
  const brand = siteInstitute(context);
  // An institute's site resets its own students only; everyone else is pointed at the platform.
  const platform = brand ? getRequestContext(context).services.links.to(null, "/forgot-password") : null;
  return { brand, email: email.slice(0, 254), platform };
}

export async function action({ context, request }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await requestPasswordReset(context, { email: form.get("email") });
  if (!result.ok) return result.response;
  return { ok: true as const };
}

/** Forgot password?: the address of the account, then the same answer whether or not it has one. */
export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const submitting = useNavigation().state === "submitting";
  const sent = actionData?.ok === true;
  return (
    <CardPage institute={loaderData.brand}>
      <h1 className="text-2xl font-semibold tracking-tight">Forgot your password?</h1>
      <p className="mt-2 text-sm text-muted-foreground">
        Enter the email you sign in with. We will send you a link to choose a new password.
      </p>
      {sent ? (
        <FormNote className="mt-6">{RESET_TEXTS.sent}</FormNote>
      ) : (
        <Form method="post" replace className="mt-6 grid gap-4">
          <Field label="Email">
            <Input name="email" type="email" autoComplete="email" required defaultValue={loaderData.email} />
          </Field>
          {actionData && !actionData.ok && <FormError>{actionData.error}</FormError>}
          <Button type="submit" size="lg" disabled={submitting}>
            {submitting ? "Sending..." : "Send reset link"}
          </Button>
        </Form>
      )}
      {loaderData.platform && (
        <p className="mt-4 text-sm text-muted-foreground">
          {RESET_TEXTS.elsewhere}{" "}
          <a href={loaderData.platform} className="text-primary underline-offset-4 hover:underline">
            {RESET_TEXTS.elsewhereLink}
          </a>
        </p>
      )}
      <p className="mt-6 text-sm">
        <Link to="/auth?mode=login" className="text-primary underline-offset-4 hover:underline">
          Back to sign in
        </Link>
      </p>
    </CardPage>
  );
}
