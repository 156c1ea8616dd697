import { useEffect } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { toast } from "~/lib/toast";
import type { Route } from "./+types/auth";
import { getRequestContext } from "~/lib/context.server";
import { getViewer } from "~/lib/session.server";
import { authenticate, registerAccount, signInAndRedirect } from "~/lib/auth-actions.server";
import { safeRedirect } from "~/lib/redirects";
import { homeFor } from "#common/home.ts";
import { Button } from "~/components/ui/button";
import { CardPage } from "~/components/shell/card-page";
import {
  AuthFields,
  AuthModeTabs,
  PASSWORD_MISMATCH,
  toastPasswordMismatch,
  useAuthFields,
  type AuthMode,
} from "~/components/auth-fields";

type AuthRole = "student" | "creator" | "business";
type Mode = AuthMode;

const ROLE_LABELS: Record<AuthRole, string> = { student: "Student", creator: "Creator", business: "Business" };

export const meta: Route.MetaFunction = ({ loaderData: d }) => [
  {
    title: `${d ? `${ROLE_LABELS[d.role]} ${d.mode === "login" ? "sign in" : "sign up"}` : "Sign in"} | ${d?.brand ?? "Pathshala"}`,
  },
  { name: "robots", content: "noindex" },
];

function readRole(value: string | null, tenant: boolean): AuthRole {
  const allowed: AuthRole[] = tenant ? ["student", "business"] : ["student", "creator", "business"];
  return allowed.includes(value as AuthRole) ? (value as AuthRole) : "student";
}

export function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const { site } = getRequestContext(context);
  const tenant = site.kind === "tenant";
  const role = readRole(url.searchParams.get("role"), tenant);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"), "");
  const viewer = getViewer(context);
  if (viewer && viewer.role === role) throw redirect(redirectTo || homeFor(viewer.role));
  // On an institute's domain owners sign in (they registered when buying the plan); only students sign up.
  const registerAllowed = !(tenant && role === "business");
  const requested = url.searchParams.get("mode");
  const mode: Mode =
    !registerAllowed || requested === "login" || (requested !== "register" && redirectTo) ? "login" : "register";
  return {
    role,
    mode,
    registerAllowed,
    redirectTo,
    brand: tenant ? site.center.instituteName : "Pathshala",
    tenant,
    signedInAs: viewer ? { name: viewer.name, role: viewer.role } : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const { site } = getRequestContext(context);
  const role = readRole(String(form.get("role") ?? ""), site.kind === "tenant");
  const redirectTo = safeRedirect(form.get("redirectTo"), "");
  const email = form.get("email");
  const password = form.get("password");

  if (form.get("intent") === "register") {
    if (password !== form.get("confirmPassword"))
      return data({ error: PASSWORD_MISMATCH.title, mismatch: true }, { status: 400 });
    const result = await registerAccount(context, { name: form.get("name"), email, password, role });
    if (!result.ok) return result.response;
    return signInAndRedirect(context, result.value, redirectTo || homeFor(result.value.role), {
      persistent: false,
      toast: { kind: "success", title: "Account created", description: "Welcome! Your account has been created." },
    });
  }

  const result = await authenticate(context, { email, password, role });
  if (!result.ok) return result.response;
  return signInAndRedirect(context, result.value, redirectTo || homeFor(result.value.role), {
    persistent: form.get("remember") === "on",
    toast: { kind: "success", title: "Logged in", description: "Welcome back!" },
  });
}

export default function AuthPage(props: Route.ComponentProps) {
  // Changing role starts over: a new form, every field cleared.
  return <AuthForm key={props.loaderData.role} {...props} />;
}

function AuthForm({ loaderData, actionData }: Route.ComponentProps) {
  const { role, registerAllowed, redirectTo, brand, signedInAs } = loaderData;
  const { mode, fields, set, switchMode, onSubmit } = useAuthFields({ mode: loaderData.mode });
  const navigation = useNavigation();
  const submitting = navigation.state !== "idle" && navigation.formAction?.startsWith("/auth");

  useEffect(() => {
    if (!actionData) return;
    if ("mismatch" in actionData) toastPasswordMismatch();
    else
      toast.error("Authentication failed", {
        description: actionData.error || "Something went wrong. Please try again.",
        duration: 4000,
      });
  }, [actionData]);

  const label = ROLE_LABELS[role];
  return (
    <CardPage brand={loaderData.tenant ? <span className="font-semibold">{brand}</span> : undefined}>
      <div className="flex items-start justify-between gap-4">
        <div>
          <p className="text-sm font-medium text-primary">{label}</p>
          <h1 className="mt-1 text-2xl font-semibold tracking-tight">
            {mode === "login" ? "Sign in" : "Create your account"}
          </h1>
        </div>
        {!loaderData.tenant && (
          <Link to="/get-started" className="text-sm text-primary underline-offset-4 hover:underline">
            Change role
          </Link>
        )}
      </div>

      {signedInAs && (
        <p className="mt-4 rounded-md bg-muted p-3 text-sm text-muted-foreground">
          You are signed in as {signedInAs.name} ({signedInAs.role}). Sign in with a {label.toLowerCase()} account to
          continue.
        </p>
      )}

      {registerAllowed && (
        <div className="mt-6">
          <AuthModeTabs
            mode={mode}
            onChange={switchMode}
            labels={{ register: "Register", login: "Login" }}
            label="Register or sign in"
          />
        </div>
      )}

      <Form method="post" replace onSubmit={onSubmit} className="mt-6 grid gap-4" noValidate={false}>
        <input type="hidden" name="intent" value={mode} />
        <input type="hidden" name="role" value={role} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <AuthFields mode={mode} fields={fields} set={set} rememberMe />
        {actionData?.error && (
          <p role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
            {actionData.error}
          </p>
        )}
        <Button type="submit" size="lg" disabled={submitting}>
          {mode === "login"
            ? submitting
              ? "Signing in..."
              : "Sign in"
            : submitting
              ? "Creating account..."
              : "Create account"}
        </Button>
      </Form>
    </CardPage>
  );
}
