import { data, Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/login-code";
import { getRequestContext, siteInstitute } from "~/lib/context.server";
import { signInAndRedirect } from "~/lib/auth-actions.server";
import { tryService } from "~/lib/actions.server";
import { homeFor } from "#common/home.ts";
import { PHONE_TEXTS } from "#common/validation/phone-code.ts";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Field } from "~/components/ui/field";
import { CardPage } from "~/components/shell/card-page";
import { FormError, FormNote } from "~/components/ui/form-message";
import { OneTimeCodeField } from "~/components/auth-fields";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Sign in with a code | ${loaderData?.brand ?? "Pathshala"}` },
  { name: "robots", content: "noindex" },
];

export function loader({ context }: Route.LoaderArgs) {
  return { brand: siteInstitute(context) };
}

/**
 * Step one sends a code to the number; step two signs in with it. A wrong code keeps the student
 * on step two with the number kept and the error shown (issue 38 §6); "Send a new code" asks again.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const { services, meta } = getRequestContext(context);
  const form = await request.formData();
  const phone = String(form.get("phone") ?? "");
  if (form.get("intent") === "sign-in") {
    const result = await tryService(() => services.phones.signIn({ phone, code: form.get("code") }, meta));
    if (!result.ok) {
      const { data: failed, init } = result.response;
      return data({ ...failed, step: "code" as const, phone }, init ?? undefined);
    }
    return signInAndRedirect(context, result.value, homeFor(result.value.role), {
      persistent: false,
      toast: { kind: "success", title: "Success!", description: `Welcome back, ${result.value.name}` },
    });
  }
  const sent = await tryService(() => services.phones.requestSignIn({ phone }, meta));
  if (!sent.ok) {
    const { data: failed, init } = sent.response;
    return data({ ...failed, step: "phone" as const, phone }, init ?? undefined);
  }
  return { ok: true as const, step: "code" as const, phone };
}

export default function LoginCode({ loaderData, actionData }: Route.ComponentProps) {
  const submitting = useNavigation().state === "submitting";
  const sentTo = actionData?.step === "code" ? actionData.phone : null;
  return (
    <CardPage institute={loaderData.brand}>
      <h1 className="text-2xl font-semibold tracking-tight">Sign in with a code</h1>
      <p className="mt-2 text-sm text-muted-foreground">
        For accounts with a verified mobile number. We send the code on WhatsApp and by SMS.
      </p>
      <Form method="post" replace className="mt-6 grid gap-4">
        {sentTo !== null ? (
          <>
            <FormNote>{PHONE_TEXTS.signInSent}</FormNote>
            <Field label="Mobile number">
              <Input name="phone" type="tel" value={sentTo} readOnly />
            </Field>
            <OneTimeCodeField />
          </>
        ) : (
          <Field label="Mobile number">
            <Input
              name="phone"
              type="tel"
              autoComplete="tel"
              placeholder="+91 98765 43210"
              defaultValue={actionData?.phone ?? ""}
              required
            />
          </Field>
        )}
        {actionData && !actionData.ok && <FormError>{actionData.error}</FormError>}
        <Button
          type="submit"
          size="lg"
          disabled={submitting}
          name="intent"
          value={sentTo !== null ? "sign-in" : "send"}
        >
          {sentTo !== null ? (submitting ? "Signing in..." : "Sign in") : submitting ? "Sending..." : "Send code"}
        </Button>
        {sentTo !== null && (
          <Button type="submit" variant="outline" name="intent" value="send" formNoValidate disabled={submitting}>
            Send a new code
          </Button>
        )}
      </Form>
      <p className="mt-6 flex flex-wrap gap-x-4 gap-y-2 text-sm">
        {sentTo !== null && (
          <Link to="/login-code" className="text-primary underline-offset-4 hover:underline">
            Use another number
          </Link>
        )}
        <Link to="/auth?mode=login" className="text-primary underline-offset-4 hover:underline">
          Sign in with your password
        </Link>
      </p>
    </CardPage>
  );
}
