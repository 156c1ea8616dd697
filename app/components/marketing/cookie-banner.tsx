import { useState } from "react";
import { Link } from "react-router";
import { Cookie } from "lucide-react";
import { Button } from "~/components/ui/button";
import { storeCookieConsent } from "~/lib/cookie-consent";

/**
 * Fixed at the bottom until answered. Accept stores the consent (the server then never renders
 * the banner again); Reject hides it for this page view only (spec §4).
 */
export function CookieBanner({ onAccept }: { onAccept: () => void }) {
  const [answered, setAnswered] = useState(false);
  if (answered) return null;
  return (
    <section
      aria-label="Cookie consent"
      className="fixed inset-x-3 bottom-3 z-50 mx-auto flex max-w-3xl flex-col gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-lg sm:flex-row sm:items-center"
    >
      <Cookie className="hidden size-6 shrink-0 text-primary sm:block" aria-hidden />
      <p className="text-sm text-muted-foreground">
        We use cookies to keep you signed in and remember your preferences.{" "}
        <Link to="/legal#cookies" className="font-medium text-foreground underline underline-offset-4">
          Cookie Policy
        </Link>
      </p>
      <div className="flex shrink-0 gap-2 sm:ml-auto">
        <Button variant="outline" size="sm" onClick={() => setAnswered(true)}>
          Reject
        </Button>
        <Button
          size="sm"
          onClick={() => {
            storeCookieConsent();
            setAnswered(true);
            onAccept();
          }}
        >
          Accept
        </Button>
      </div>
    </section>
  );
}
