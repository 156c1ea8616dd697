import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { toast } from "~/lib/toast";
import { Dialog, DialogContent } from "~/components/ui/dialog";
import { Button } from "~/components/ui/button";
import {
  AuthFields,
  AuthModeTabs,
  toastPasswordMismatch,
  useAuthFields,
  type AuthMode,
} from "~/components/auth-fields";

export type { AuthMode };
export interface SetupAuthResult {
  ok?: boolean;
  mode?: AuthMode;
  error?: string;
  mismatch?: boolean;
}

const EMAIL_TAKEN = "An account with this email already exists";

/**
 * Paying needs a business account: sign up or sign in right here, with the owner's name and
 * email from the wizard filled in. The wizard keeps its state and continues afterwards.
 */
export function BusinessAuthDialog({
  open,
  onOpenChange,
  prefill,
  signedInAs,
  onSignedIn,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  prefill: { name: string; email: string };
  signedInAs: { name: string; role: string } | null;
  onSignedIn: (mode: AuthMode) => void;
}) {
  const fetcher = useFetcher<SetupAuthResult>({ key: "setup-auth" });
  const { mode, fields, set, switchMode, onSubmit } = useAuthFields({
    name: prefill.name,
    email: prefill.email,
    mode: "register",
  });
  const submitting = fetcher.state !== "idle";
  const handled = useRef<SetupAuthResult | undefined>(undefined);

  useEffect(() => {
    const result = fetcher.data;
    if (!result || fetcher.state !== "idle" || handled.current === result) return;
    handled.current = result;
    if (result.ok && result.mode) onSignedIn(result.mode);
    else if (result.mismatch) toastPasswordMismatch();
    else
      toast.error("Authentication failed", {
        description: result.error || "Something went wrong. Please try again.",
        duration: 4000,
      });
  }, [fetcher.data, fetcher.state, onSignedIn]);

  const error = fetcher.data && !fetcher.data.ok && !submitting ? fetcher.data.error : null;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        title="Continue with a business account"
        description="Your plan and your institute's website belong to this account. Everything you entered stays as it is."
      >
        {signedInAs && (
          <p className="rounded-md bg-muted p-3 text-sm text-muted-foreground">
            You are signed in as {signedInAs.name} ({signedInAs.role}). Paying needs a business account.
          </p>
        )}
        <AuthModeTabs
          mode={mode}
          onChange={switchMode}
          labels={{ register: "Create account", login: "Sign in" }}
          label="Create an account or sign in"
        />
        <fetcher.Form method="post" action="/pricing/setup" onSubmit={onSubmit} className="grid gap-4">
          <input type="hidden" name="intent" value={mode} />
          <AuthFields mode={mode} fields={fields} set={set} />
          {error && (
            <div role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
              {error}
              {error === EMAIL_TAKEN && mode === "register" && (
                <>
                  {" "}
                  <button
                    type="button"
                    className="font-medium underline underline-offset-2"
                    onClick={() => switchMode("login")}
                  >
                    Sign in instead
                  </button>
                </>
              )}
            </div>
          )}
          <Button type="submit" size="lg" disabled={submitting}>
            {mode === "login"
              ? submitting
                ? "Signing in..."
                : "Sign in and continue"
              : submitting
                ? "Creating account..."
                : "Create account and continue"}
          </Button>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}
