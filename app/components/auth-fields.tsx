import { useState } from "react";
import { toast } from "~/lib/toast";
import { Input } from "~/components/ui/input";
import { Field } from "~/components/ui/field";
import { PasswordInput } from "~/components/ui/password-input";
import { Link } from "react-router";
import { cn } from "~/lib/cn";
import { RESET_TEXTS } from "#common/validation/account-security.ts";
import { PHONE_TEXTS } from "#common/validation/phone-code.ts";

export type AuthMode = "register" | "login";

export const PASSWORD_MISMATCH = {
  title: "Passwords do not match",
  description: "Please re-enter the same password in both fields.",
};

export function toastPasswordMismatch() {
  toast.error(PASSWORD_MISMATCH.title, { description: PASSWORD_MISMATCH.description, duration: 4000 });
}

export interface AuthFieldValues {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
}

/**
 * The state of a sign-up / sign-in form: changing mode clears the passwords (spec §4), and a
 * sign-up whose passwords differ is stopped in the browser with the spec's toast (the server
 * checks again).
 */
export function useAuthFields(initial: { name?: string; email?: string; mode: AuthMode }) {
  const [mode, setMode] = useState<AuthMode>(initial.mode);
  const [fields, setFields] = useState<AuthFieldValues>({
    name: initial.name ?? "",
    email: initial.email ?? "",
    password: "",
    confirmPassword: "",
  });
  return {
    mode,
    fields,
    set: (key: keyof AuthFieldValues) => (event: React.ChangeEvent<HTMLInputElement>) =>
      setFields((f) => ({ ...f, [key]: event.target.value })),
    switchMode(next: AuthMode) {
      setMode(next);
      setFields((f) => ({ ...f, password: "", confirmPassword: "" }));
    },
    onSubmit(event: React.FormEvent<HTMLFormElement>) {
      if (mode === "register" && fields.password !== fields.confirmPassword) {
        event.preventDefault();
        toastPasswordMismatch();
      }
    },
  };
}

/** Register / Login tabs. */
export function AuthModeTabs({
  mode,
  onChange,
  labels,
  label,
}: {
  mode: AuthMode;
  onChange: (mode: AuthMode) => void;
  labels: Record<AuthMode, string>;
  label: string;
}) {
  return (
    <div role="tablist" aria-label={label} className="grid grid-cols-2 rounded-lg bg-muted p-1">
      {(["register", "login"] as const).map((m) => (
        <button
          key={m}
          type="button"
          role="tab"
          aria-selected={mode === m}
          onClick={() => onChange(m)}
          className={cn(
            "rounded-md py-1.5 text-sm font-medium transition",
            mode === m ? "bg-background shadow-sm" : "text-muted-foreground",
          )}
        >
          {labels[m]}
        </button>
      ))}
    </div>
  );
}

/** Full name (sign-up), email, password with show/hide, and confirm password (sign-up) or Remember me. */
export function AuthFields({
  mode,
  fields,
  set,
  rememberMe = false,
}: {
  mode: AuthMode;
  fields: AuthFieldValues;
  set: (key: keyof AuthFieldValues) => (event: React.ChangeEvent<HTMLInputElement>) => void;
  rememberMe?: boolean;
}) {
  return (
    <>
      {mode === "register" && (
        <Field label="Full name">
          <Input name="name" autoComplete="name" required value={fields.name} onChange={set("name")} />
        </Field>
      )}
      <Field label="Email">
        <Input name="email" type="email" autoComplete="email" required value={fields.email} onChange={set("email")} />
      </Field>
      <Field label="Password" hint={mode === "register" ? "At least 8 characters." : undefined}>
        <PasswordInput
          name="password"
          autoComplete={mode === "register" ? "new-password" : "current-password"}
          required
          minLength={mode === "register" ? 8 : undefined}
          value={fields.password}
          onChange={set("password")}
        />
      </Field>
      {mode === "register" ? (
        <Field label="Confirm password">
          <PasswordInput
            name="confirmPassword"
            autoComplete="new-password"
            required
            value={fields.confirmPassword}
            onChange={set("confirmPassword")}
          />
        </Field>
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
          {rememberMe && (
            <label className="flex items-center gap-2">
              <input type="checkbox" name="remember" className="size-4 rounded border-input accent-[var(--primary)]" />{" "}
              Remember me
            </label>
          )}
          <span className="ml-auto flex flex-wrap gap-x-4 gap-y-1">
            <Link to="/login-code" className="text-primary underline-offset-4 hover:underline">
              {PHONE_TEXTS.signInWithCode}
            </Link>
            <ForgotPasswordLink email={fields.email} />
          </span>
        </div>
      )}
    </>
  );
}

/** A new password, typed twice (a reset link's page, Change password). */
export function NewPasswordFields() {
  return (
    <>
      <Field label="New password" hint="At least 8 characters.">
        <PasswordInput name="password" autoComplete="new-password" required minLength={8} />
      </Field>
      <Field label="Confirm new password">
        <PasswordInput name="confirmPassword" autoComplete="new-password" required />
      </Field>
    </>
  );
}

/** The 6-digit code sent on WhatsApp and SMS (adding a number, signing in with one). */
export function OneTimeCodeField() {
  return (
    <Field label="Code">
      <Input name="code" inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required />
    </Field>
  );
}

/** 'Forgot password?' on every sign-in form, carrying the address typed so far. */
export function ForgotPasswordLink({ email, className }: { email?: string; className?: string }) {
  const query = email?.trim() ? `?email=${encodeURIComponent(email.trim())}` : "";
  return (
    <Link
      to={`/forgot-password${query}`}
      className={cn("text-sm text-primary underline-offset-4 hover:underline", className)}
    >
      {RESET_TEXTS.forgotLink}
    </Link>
  );
}
