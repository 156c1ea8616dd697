import { useEffect } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { toast } from "~/lib/toast";
import type { Route } from "./+types/login";
import { getViewer } from "~/lib/session.server";
import { authenticate, signInAndRedirect } from "~/lib/auth-actions.server";
import { homeFor } from "#common/home.ts";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Field } from "~/components/ui/field";
import { PasswordInput } from "~/components/ui/password-input";
import { Logo } from "~/components/shell/logo";
import { ForgotPasswordLink } from "~/components/auth-fields";
import { siteInstitute } from "~/lib/context.server";
import { dashboardWelcome } from "#common/platform-name.ts";

const MISSING = "Please enter both email and password";

export const meta: Route.MetaFunction = () => [
  { title: "Sign In | Pathshala" },
  { name: "robots", content: "noindex" },
];

/**
 * The spec sends this page to /dashboard, the admins' area; each role lands in its own area
 * instead (a student in /student, never in the admin shell).
 */
export function loader({ context }: Route.LoaderArgs) {
  const viewer = getViewer(context);
  if (viewer) throw redirect(homeFor(viewer.role));
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const email = String(form.get("email") ?? "").trim();
  const password = String(form.get("password") ?? "");
  if (!email || !password) return data({ error: MISSING }, { status: 400 });
  const result = await authenticate(context, { email, password });
  if (!result.ok) return result.response;
  return signInAndRedirect(context, result.value, homeFor(result.value.role), {
    persistent: false,
    toast: { kind: "success", title: "Success!", description: dashboardWelcome(siteInstitute(context)) },
  });
}

/** The simple sign-in page: any account, then that account's own area. */
export default function SimpleSignIn({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formAction === "/login";
  useEffect(() => {
    if (actionData?.error && actionData.error !== MISSING) {
      toast.error("Login Failed", {
        description: "Invalid email or password. Please check your credentials.",
        duration: 4000,
      });
    }
  }, [actionData]);
  return (
    <main className="grid min-h-screen place-items-center bg-muted/40 px-4">
      <div className="w-full max-w-sm rounded-2xl border bg-card p-8 shadow-sm">
        <Logo />
        <h1 className="mt-6 text-2xl font-semibold tracking-tight">Sign In</h1>
        <Form
          method="post"
          replace
          className="mt-6 grid gap-4"
          noValidate
          onSubmit={(event) => {
            const form = new FormData(event.currentTarget);
            if (!String(form.get("email") ?? "").trim() || !String(form.get("password") ?? "")) {
              event.preventDefault();
              window.alert(MISSING);
            }
          }}
        >
          <Field label="Email">
            <Input name="email" type="email" autoComplete="email" />
          </Field>
          <Field label="Password">
            <PasswordInput name="password" autoComplete="current-password" />
          </Field>
          {actionData?.error && (
            <p role="alert" className="text-sm text-destructive">
              {actionData.error === MISSING ? MISSING : "Invalid email or password. Please check your credentials."}
            </p>
          )}
          <Button type="submit" size="lg" disabled={submitting}>
            {submitting ? "Signing in..." : "Sign In"}
          </Button>
        </Form>
        <ForgotPasswordLink className="mt-4 inline-block" />
      </div>
    </main>
  );
}
