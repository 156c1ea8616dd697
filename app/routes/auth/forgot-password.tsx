import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/forgot-password";
import { getRequestContext } from "~/lib/context.server";
import { requestPasswordReset } from "~/lib/auth-actions.server";
import { RESET_TEXTS } from "#common/validation/password-reset.ts";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Field } from "~/components/ui/field";
import { CardPage } from "~/components/shell/card-page";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Forgot password | ${loaderData?.brand ?? "Pathshala"}` },
  { name: "robots", content: "noindex" },
];

export function loader({ context, request }: Route.LoaderArgs) {
  const { site } = getRequestContext(context);
  const email = new URL(request.url).searchParams.get("email") ?? "";
  return { brand: site.kind === "tenant" ? site.center.instituteName : null, email: email.slice(0, 254) };
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
    <CardPage brand={loaderData.brand ? <span className="font-semibold">{loaderData.brand}</span> : undefined}>
      <h1 className="text-2xl font-semibold tracking-tight">Forgot your password?</h1>
      <p className="mt-2 text-sm text-muted-foreground">
        Enter the email you sign in with. We will send you a link to choose a new password.
      </p>
      {sent ? (
        <p role="status" className="mt-6 rounded-md bg-muted p-3 text-sm">
          {RESET_TEXTS.sent}
        </p>
      ) : (
        <Form method="post" replace className="mt-6 grid gap-4">
          <Field label="Email">
            <Input name="email" type="email" autoComplete="email" required defaultValue={loaderData.email} />
          </Field>
          {actionData && !actionData.ok && (
            <p role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
              {actionData.error}
            </p>
          )}
          <Button type="submit" size="lg" disabled={submitting}>
            {submitting ? "Sending..." : "Send reset link"}
          </Button>
        </Form>
      )}
      <p className="mt-6 text-sm">
        <Link to="/auth?mode=login" className="text-primary underline-offset-4 hover:underline">
          Back to sign in
        </Link>
      </p>
    </CardPage>
  );
}
