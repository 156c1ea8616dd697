import { useEffect, useState } from "react";
import { Link, useNavigate } from "react-router";
import { Rocket } from "lucide-react";
import type { Route } from "./+types/launching-soon";
import { getRequestContext } from "~/lib/context.server";
import { requireViewer } from "~/lib/session.server";
import { ButtonLink } from "~/components/ui/button";
import { Logo } from "~/components/shell/logo";
import { thePlan } from "#common/format.ts";

const COUNTDOWN_SECONDS = 10;
const NEXT = "/business/templates";

/**
 * /admin, the Launching Soon page. The spec's "plan purchased" flag is the server's record of a
 * paid purchase by the signed-in account, not something the browser claims.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = requireViewer(context, request);
  const { services } = getRequestContext(context);
  const purchase = await services.purchases.latestPaid(viewer.id);
  return {
    planPurchased: !!purchase,
    institute: purchase?.instituteName ?? null,
    domain: purchase?.domain ?? null,
    plan: purchase?.planName ?? null,
  };
}

export const meta: Route.MetaFunction = () => [{ title: "Launching Soon | Pathshala" }];

export default function LaunchingSoon({ loaderData }: Route.ComponentProps) {
  const { planPurchased, institute, domain, plan } = loaderData;
  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-b from-primary/10 via-background to-background">
      <header className="mx-auto w-full max-w-5xl px-6 py-5">
        <Link to="/" aria-label="Pathshala home">
          <Logo />
        </Link>
      </header>
      <main className="mx-auto grid w-full max-w-xl flex-1 place-items-center px-6 pb-20 text-center">
        <div>
          <span className="mx-auto grid size-16 place-items-center rounded-2xl bg-primary/10 text-primary">
            <Rocket className="size-8" aria-hidden />
          </span>
          <h1 className="mt-6 text-4xl font-bold tracking-tight">Launching Soon</h1>
          {planPurchased ? (
            <>
              <p className="mt-4 text-lg text-muted-foreground">
                {institute} is on {thePlan(plan ?? "")}. Next, pick the design of your website
                {domain ? ` at ${domain}` : ""}.
              </p>
              <Countdown />
            </>
          ) : (
            <>
              <p className="mt-4 text-lg text-muted-foreground">
                Your institute's website launches as soon as you choose a plan.
              </p>
              <ButtonLink to="/pricing" size="lg" className="mt-8">
                See plans
              </ButtonLink>
            </>
          )}
        </div>
      </main>
    </div>
  );
}

/** Spec §2: a 10-second countdown, 'Redirect in Ns', then the templates, replacing this page in history. */
function Countdown() {
  const navigate = useNavigate();
  const [left, setLeft] = useState(COUNTDOWN_SECONDS);

  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => {
      const remaining = Math.max(0, COUNTDOWN_SECONDS - Math.floor((Date.now() - started) / 1000));
      setLeft(remaining);
      if (remaining === 0) {
        clearInterval(timer);
        navigate(NEXT, { replace: true });
      }
    }, 250);
    return () => clearInterval(timer);
  }, [navigate]);

  return (
    <div className="mt-8">
      <p className="text-2xl font-semibold tabular-nums" aria-live="polite" aria-atomic="true">
        Redirect in {left}s
      </p>
      <div className="mx-auto mt-4 h-1.5 max-w-xs overflow-hidden rounded-full bg-muted">
        <div
          className="h-full bg-primary transition-[width] duration-300"
          style={{ width: `${((COUNTDOWN_SECONDS - left) / COUNTDOWN_SECONDS) * 100}%` }}
        />
      </div>
      <ButtonLink to={NEXT} replace variant="outline" className="mt-6">
        Choose a template now
      </ButtonLink>
    </div>
  );
}
