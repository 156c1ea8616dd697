import { useEffect } from "react";
import { data, Form, redirect, useNavigation } from "react-router";
import { toast } from "~/lib/toast";
import { ShieldCheck } from "lucide-react";
import type { Route } from "./+types/login";
import { getViewer } from "~/lib/session.server";
import { authenticate, signInAndRedirect } from "~/lib/auth-actions.server";
import { safeRedirect } from "~/lib/redirects";
import { homeFor } from "#common/home.ts";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Field } from "~/components/ui/field";
import { PasswordInput } from "~/components/ui/password-input";
import { siteInstitute } from "~/lib/context.server";
import { dashboardWelcome } from "#common/platform-name.ts";

const FAILED = "Invalid email or password. Please check your credentials.";
const NOT_ADMIN = "This dashboard is for platform admins. Please use your own sign-in.";

export const meta: Route.MetaFunction = () => [
  { title: "Admin Dashboard | Pathshala" },
  { name: "robots", content: "noindex" },
];

/** /dashboard: the platform admins' sign-in; signed-in admins go straight to the overview, others to their own area. */
export function loader({ request, context }: Route.LoaderArgs) {
  const viewer = getViewer(context);
  if (viewer?.role === "admin") {
    throw redirect(safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/dashboard/overview"));
  }
  if (viewer) throw redirect(homeFor(viewer.role));
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const result = await authenticate(context, { email: form.get("email"), password: form.get("password") });
  if (!result.ok) return result.response;
  if (result.value.role !== "admin") return data({ error: NOT_ADMIN }, { status: 403 });
  const to = safeRedirect(new URL(request.url).searchParams.get("redirectTo"), "/dashboard/overview");
  return signInAndRedirect(context, result.value, to.startsWith("/dashboard") ? to : "/dashboard/overview", {
    persistent: false,
    toast: { kind: "success", title: "Success!", description: dashboardWelcome(siteInstitute(context)) },
  });
}

export default function AdminLogin({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const error = actionData?.error;
  const message = !error ? null : error === NOT_ADMIN || error.startsWith("Too many") ? error : FAILED;
  useEffect(() => {
    if (message) toast.error("Login Failed", { description: message, duration: 4000 });
  }, [actionData, message]);
  return (
    <main className="grid min-h-screen place-items-center bg-muted/40 px-4">
      <div className="w-full max-w-sm rounded-2xl border bg-card p-8 shadow-sm">
        <span className="grid size-11 place-items-center rounded-xl bg-primary/10 text-primary">
          <ShieldCheck className="size-6" aria-hidden />
        </span>
        <h1 className="mt-4 text-2xl font-semibold tracking-tight">Admin Dashboard</h1>
        <p className="mt-1 text-sm text-muted-foreground">Sign in to manage plans, centers and notifications.</p>
        <Form method="post" replace className="mt-6 grid gap-4">
          <Field label="Email">
            <Input name="email" type="email" autoComplete="username" required />
          </Field>
          <Field label="Password">
            <PasswordInput name="password" autoComplete="current-password" required />
          </Field>
          {message && (
            <p role="alert" className="text-sm text-destructive">
              {message}
            </p>
          )}
          <Button type="submit" size="lg" disabled={submitting}>
            {submitting ? "Signing in..." : "Sign In"}
          </Button>
        </Form>
      </div>
    </main>
  );
}
