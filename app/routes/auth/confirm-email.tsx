import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/confirm-email";
import { getRequestContext, siteInstitute } from "~/lib/context.server";
import { tryService } from "~/lib/actions.server";
import { EMAIL_CHANGE_TEXTS } from "#common/validation/account-security.ts";
import { Button } from "~/components/ui/button";
import { CardPage } from "~/components/shell/card-page";
import { FormError, FormNote } from "~/components/ui/form-message";

export const meta: Route.MetaFunction = () => [
  { title: "Confirm your new e-mail | Pathshala" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

export function loader({ context, request }: Route.LoaderArgs) {
  return {
    brand: siteInstitute(context),
    token: (new URL(request.url).searchParams.get("token") ?? "").slice(0, 200),
  };
}

export async function action({ context, request }: Route.ActionArgs) {
  const { services, meta } = getRequestContext(context);
  const form = await request.formData();
  const done = await tryService(() => services.emailChanges.confirm({ token: form.get("token") }, meta));
  if (!done.ok) return done.response;
  return { ok: true as const, message: EMAIL_CHANGE_TEXTS.done(done.value.email) };
}

/** The link sent to the new address: one click confirms (a scanner opening the link changes nothing). */
export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const submitting = useNavigation().state === "submitting";
  return (
    <CardPage institute={loaderData.brand}>
      <h1 className="text-2xl font-semibold tracking-tight">Confirm your new e-mail</h1>
      {actionData?.ok ? (
        <>
          <FormNote className="mt-6">{actionData.message}</FormNote>
          <p className="mt-6 text-sm">
            <Link to="/auth?mode=login" className="text-primary underline-offset-4 hover:underline">
              Sign in
            </Link>
          </p>
        </>
      ) : !loaderData.token ? (
        <FormError className="mt-6">{EMAIL_CHANGE_TEXTS.invalid}</FormError>
      ) : (
        <Form method="post" replace className="mt-6 grid gap-4">
          <input type="hidden" name="token" value={loaderData.token} />
          {actionData && !actionData.ok && <FormError>{actionData.error}</FormError>}
          <Button type="submit" size="lg" disabled={submitting}>
            {submitting ? "Confirming..." : "Confirm new e-mail"}
          </Button>
        </Form>
      )}
    </CardPage>
  );
}
