import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import { toast } from "~/lib/toast";
import * as v from "valibot";
import { ArrowLeft, Check, CircleAlert, Hourglass, Loader2, ShieldCheck } from "lucide-react";
import type { Route } from "./+types/pricing-setup";
import { loadCheckoutPlans } from "~/lib/plan-checkout.server";
import { getViewer } from "~/lib/session.server";
import { getRequestContext } from "~/lib/context.server";
import { setupAuthAction } from "~/lib/setup-auth.server";
import { billingLabel, formatRupees, isBilling, type Billing } from "#common/validation/plans.ts";
import { normaliseDomainInput, Step1Schema, Step2Schema } from "#common/validation/setup.ts";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Field } from "~/components/ui/field";
import { Logo } from "~/components/shell/logo";
import { OrderSummary } from "~/components/setup/order-summary";
import { BusinessAuthDialog, type AuthMode } from "~/components/setup/business-auth-dialog";
import { useDomainCheck } from "~/components/setup/use-domain-check";
import { usePlanPayment, type PlanOrderDetails, type VerifiedPayment } from "~/components/setup/use-plan-payment";
import { cn } from "~/lib/cn";
import { thePlan } from "#common/format.ts";
import { TRIAL_TEXTS } from "#common/trial.ts";

export const meta: Route.MetaFunction = () => [{ title: "Set up your institute | Pathshala" }];

const STEPS = ["Institute Details", "Owner Information", "Review & Payment"] as const;
const STORAGE_KEY = "pathshala.setup";
/** Spec §3 "Setup wizard state": plan name default Professional, billing default monthly. */
const DEFAULT_PLAN = "Professional";

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const viewer = getViewer(context);
  const { plans, checkout } = await loadCheckoutPlans(context);
  const requested = url.searchParams.get("plan")?.trim() || DEFAULT_PLAN;
  const billing = url.searchParams.get("billing");
  const match = plans.find((p) => p.name.toLowerCase() === requested.toLowerCase());
  return {
    plans,
    initial: {
      // A trial started without a plan in mind begins with the first plan; the summary changes it.
      plan:
        match?.name ??
        (!url.searchParams.get("plan") && url.searchParams.get("trial") === "1" ? (plans[0]?.name ?? null) : null),
      requested,
      billing: (isBilling(billing) ? billing : "monthly") as Billing,
      // Start Free Trial (landing page, /pricing) opens the wizard for a trial.
      trial: url.searchParams.get("trial") === "1",
    },
    viewer: viewer ? { id: viewer.id, name: viewer.name, email: viewer.email, role: viewer.role } : null,
    // A visitor who is not signed in may start one (the account is made on the way); a signed-in
    // owner only if TrialService says so (one per owner, for their first institute).
    trialRefusal:
      viewer?.role === "business" ? await getRequestContext(context).services.trials.refusal(viewer.id) : null,
    checkout,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  return setupAuthAction(context, await request.formData());
}

interface Details {
  brandName: string;
  domainName: string;
  ownerName: string;
  email: string;
  phone: string;
}

const EMPTY: Details = { brandName: "", domainName: "", ownerName: "", email: "", phone: "" };

const TRIAL_FAILED = "Could not start the free trial. Please try again.";

/** The wizard's answers as the order and the free trial both take them (WIZARD_FIELDS). */
function wizardFields(details: Details, plan: string, billing: Billing) {
  return {
    institute: details.brandName,
    owner: details.ownerName,
    email: details.email,
    phone: details.phone,
    domain: details.domainName,
    plan,
    billing,
  };
}

function fieldErrors(schema: v.GenericSchema, value: unknown): Record<string, string> {
  const result = v.safeParse(schema, value);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.issues) {
    const key = String(issue.path?.[0]?.key ?? "");
    errors[key] ??= issue.message;
  }
  return errors;
}

export default function SetupWizard({ loaderData }: Route.ComponentProps) {
  const { plans, initial, viewer, checkout, trialRefusal } = loaderData;
  // The trial is offered only to those who may start one (TrialService.refusal decides, here as in the API).
  const offerTrial = trialRefusal === null;
  const trialMode = initial.trial && offerTrial;
  const navigate = useNavigate();
  const [step, setStep] = useState(1);
  const [details, setDetails] = useState<Details>(EMPTY);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [planName, setPlanName] = useState<string | null>(initial.plan);
  const [billing, setBilling] = useState<Billing>(initial.billing);
  const [authOpen, setAuthOpen] = useState(false);
  const continueAfterAuth = useRef<"pay" | "trial" | null>(null);
  const wanted = useRef<"pay" | "trial">(trialMode ? "trial" : "pay");
  const [starting, setStarting] = useState(false);
  const [restored, setRestored] = useState(false);
  // After Next or Back, focus moves to the new step's heading (not left on the page's body).
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  const goTo = (to: number) => {
    moved.current = true;
    setStep(to);
  };
  useEffect(() => {
    if (!moved.current) return;
    moved.current = false;
    stepHeading.current?.focus();
  }, [step]);

  const onPaid = useCallback(
    (_result: VerifiedPayment, paid: PlanOrderDetails) => {
      try {
        sessionStorage.removeItem(STORAGE_KEY);
      } catch {
        // Nothing to forget.
      }
      toast.success("Payment successful", {
        description: `${paid.institute.trim()} is on ${thePlan(paid.plan)}. Let's launch your website.`,
        duration: 5000,
      });
      // Spec §2: to /admin after 600 ms, with a hard redirect if that has not happened 2 s later.
      setTimeout(() => navigate("/admin"), 600);
      setTimeout(() => {
        if (window.location.pathname !== "/admin") window.location.assign("/admin");
      }, 2600);
    },
    [navigate],
  );
  const { paying, pay: payPlan } = usePlanPayment(checkout, onPaid);

  // What was typed survives a reload of this tab (and the inline sign-in never reloads it).
  useEffect(() => {
    try {
      const saved = JSON.parse(sessionStorage.getItem(STORAGE_KEY) ?? "null") as {
        details?: Partial<Details>;
        step?: number;
      } | null;
      // Restored after hydration so that the server's and the browser's first render agree.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      if (saved?.details) setDetails({ ...EMPTY, ...saved.details });
      if (saved?.step && saved.step >= 1 && saved.step <= 3) setStep(saved.step);
    } catch {
      // Storage unavailable or corrupt: start empty.
    }
    setRestored(true);
  }, []);
  useEffect(() => {
    if (!restored) return;
    try {
      sessionStorage.setItem(STORAGE_KEY, JSON.stringify({ details, step }));
    } catch {
      // Storage unavailable: nothing to keep.
    }
  }, [details, step, restored]);

  const plan = plans.find((p) => p.name === planName) ?? null;
  const price = plan ? plan.pricing[billing].price : null;
  const label = billingLabel(billing, plan ?? undefined);

  const errors1 = useMemo(
    () => fieldErrors(Step1Schema, { brandName: details.brandName, domainName: details.domainName }),
    [details.brandName, details.domainName],
  );
  const errors2 = useMemo(
    () => fieldErrors(Step2Schema, { ownerName: details.ownerName, email: details.email, phone: details.phone }),
    [details.ownerName, details.email, details.phone],
  );
  const domainCheck = useDomainCheck(details.domainName, viewer?.id ?? null);
  const domainOk = domainCheck.status === "available" || domainCheck.status === "unknown";
  const step1Valid = Object.keys(errors1).length === 0 && domainOk;
  const step2Valid = Object.keys(errors2).length === 0;
  const canPay = !!plan && price !== null && price > 0 && step1Valid && step2Valid && !paying && !starting;

  const set = (key: keyof Details) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setDetails((d) => ({ ...d, [key]: event.target.value }));
  const touch = (key: keyof Details) => () => setTouched((t) => ({ ...t, [key]: true }));
  const shown = (errors: Record<string, string>, key: keyof Details) =>
    touched[key] && details[key] !== "" ? (errors[key] ?? null) : touched[key] ? (errors[key] ?? null) : null;

  const percent = Math.round((step / STEPS.length) * 100);

  const startTrial = useCallback(async () => {
    if (!plan || !canPay) return;
    if (viewer?.role !== "business") {
      wanted.current = "trial";
      setAuthOpen(true);
      return;
    }
    setStarting(true);
    try {
      const res = await fetch("/api/trial", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(wizardFields(details, plan.name, billing)),
      });
      const body = (await res.json().catch(() => ({}))) as { error?: string; center?: { trialEndsAt: string } };
      if (!res.ok || !body.center) {
        toast.error(body.error || TRIAL_FAILED, { duration: 4000 });
        setStarting(false);
        return;
      }
      try {
        sessionStorage.removeItem(STORAGE_KEY);
      } catch {
        // Nothing to forget.
      }
      toast.success(TRIAL_TEXTS.started, {
        description: `${details.brandName.trim()} is live now. No payment was taken.`,
        duration: 5000,
      });
      navigate("/business");
    } catch {
      toast.error(TRIAL_FAILED, { duration: 4000 });
      setStarting(false);
    }
  }, [plan, canPay, viewer, details, billing, navigate]);

  const pay = useCallback(async () => {
    if (!plan || !canPay) return;
    if (viewer?.role !== "business") {
      wanted.current = "pay";
      setAuthOpen(true);
      return;
    }
    await payPlan({
      ...wizardFields(details, plan.name, billing),
      price: price ?? 0,
      label,
    });
  }, [plan, canPay, viewer, price, details, billing, label, payPlan]);

  // After the inline sign-in, once the dialog has closed, the page's data names the new business
  // account and the domain has been re-checked for it (in whichever order), carry on paying.
  useEffect(() => {
    if (continueAfterAuth.current && !authOpen && viewer?.role === "business" && canPay) {
      const next = continueAfterAuth.current;
      continueAfterAuth.current = null;
      void (next === "trial" ? startTrial() : pay());
    }
  }, [viewer, pay, startTrial, authOpen, canPay]);

  const onSignedIn = useCallback((mode: AuthMode) => {
    setAuthOpen(false);
    if (mode === "register")
      toast.success("Account created", { description: "Welcome! Your account has been created.", duration: 5000 });
    else toast.success("Logged in", { description: "Welcome back!", duration: 5000 });
    continueAfterAuth.current = wanted.current;
  }, []);

  const next = () => {
    if (step === 1) {
      setTouched((t) => ({ ...t, brandName: true, domainName: true }));
      if (step1Valid) goTo(2);
    } else if (step === 2) {
      setTouched((t) => ({ ...t, ownerName: true, email: true, phone: true }));
      if (step2Valid) goTo(3);
    }
  };

  return (
    <div className="min-h-screen bg-gradient-to-b from-primary/5 to-background">
      <header className="mx-auto flex max-w-6xl items-center justify-between px-4 py-5 md:px-6">
        <Link to="/" aria-label="Pathshala home">
          <Logo />
        </Link>
        <Link
          to="/pricing"
          className="inline-flex items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground"
        >
          <ArrowLeft className="size-4" aria-hidden /> Back to plans
        </Link>
      </header>
      <main className="mx-auto max-w-6xl px-4 pb-16 md:px-6">
        <h1 className="text-3xl font-semibold tracking-tight">
          {trialMode ? "Start your 14-day free trial" : "Set up your institute"}
        </h1>
        <p className="mt-2 text-muted-foreground">
          {trialMode
            ? "Three steps to your institute's own website. No credit card needed: your site works the moment you finish."
            : "Three steps to your institute's own website on your own domain."}
        </p>
        {initial.trial && trialRefusal && (
          <p role="status" data-testid="trial-refusal" className="mt-3 rounded-md bg-muted px-3 py-2 text-sm">
            {trialRefusal}
          </p>
        )}

        <div className="mt-8 grid items-start gap-6 lg:grid-cols-[1fr_22rem]">
          <Card className="p-6 md:p-8">
            <div className="flex items-center justify-between text-sm">
              <span className="font-medium">
                Step {step} of {STEPS.length}: {STEPS[step - 1]}
              </span>
              <span className="text-muted-foreground">{percent}% complete</span>
            </div>
            <div
              className="mt-2 h-2 overflow-hidden rounded-full bg-muted"
              role="progressbar"
              aria-label="Setup progress"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={percent}
            >
              <div className="h-full rounded-full bg-primary transition-all" style={{ width: `${percent}%` }} />
            </div>
            <ol className="mt-4 grid grid-cols-3 gap-2 text-xs sm:text-sm">
              {STEPS.map((name, i) => (
                <li
                  key={name}
                  className={cn("flex items-center gap-2", i + 1 <= step ? "text-foreground" : "text-muted-foreground")}
                  aria-current={i + 1 === step ? "step" : undefined}
                >
                  <span
                    className={cn(
                      "grid size-6 shrink-0 place-items-center rounded-full border text-xs font-semibold",
                      i + 1 < step
                        ? "border-primary bg-primary text-primary-foreground"
                        : i + 1 === step
                          ? "border-primary text-primary"
                          : "",
                    )}
                  >
                    {i + 1 < step ? <Check className="size-3.5" aria-hidden /> : i + 1}
                  </span>
                  <span className="hidden sm:inline">{name}</span>
                </li>
              ))}
            </ol>

            <form
              className="mt-8 grid gap-5"
              noValidate
              onSubmit={(e) => {
                e.preventDefault();
                if (step < 3) next();
                else void (trialMode ? startTrial() : pay());
              }}
            >
              {step === 1 && (
                <>
                  <h2 ref={stepHeading} tabIndex={-1} className="text-xl font-semibold outline-none">
                    {STEPS[0]}
                  </h2>
                  <Field label="Institute/Brand Name *" error={shown(errors1, "brandName")}>
                    <Input
                      value={details.brandName}
                      onChange={set("brandName")}
                      onBlur={touch("brandName")}
                      autoComplete="organization"
                      placeholder="Sunrise Academy"
                      maxLength={120}
                    />
                  </Field>
                  <Field
                    label="Preferred Domain Name *"
                    hint="The domain your institute's website will use, e.g. sunriseacademy.in. You can point it at us after payment."
                    error={
                      shown(errors1, "domainName") ??
                      (domainCheck.status === "unavailable" ? domainCheck.message : null)
                    }
                  >
                    <Input
                      value={details.domainName}
                      onChange={set("domainName")}
                      onBlur={touch("domainName")}
                      placeholder="yourinstitute.com"
                      autoCapitalize="none"
                      spellCheck={false}
                      inputMode="url"
                    />
                  </Field>
                  <DomainStatus check={domainCheck} />
                </>
              )}
              {step === 2 && (
                <>
                  <h2 ref={stepHeading} tabIndex={-1} className="text-xl font-semibold outline-none">
                    {STEPS[1]}
                  </h2>
                  <Field label="Owner/Director Full Name *" error={shown(errors2, "ownerName")}>
                    <Input
                      value={details.ownerName}
                      onChange={set("ownerName")}
                      onBlur={touch("ownerName")}
                      autoComplete="name"
                      maxLength={100}
                    />
                  </Field>
                  <Field label="Email Address *" error={shown(errors2, "email")}>
                    <Input
                      type="email"
                      value={details.email}
                      onChange={set("email")}
                      onBlur={touch("email")}
                      autoComplete="email"
                    />
                  </Field>
                  <Field label="Phone Number (optional)" error={shown(errors2, "phone")}>
                    <Input
                      type="tel"
                      value={details.phone}
                      onChange={set("phone")}
                      onBlur={touch("phone")}
                      autoComplete="tel"
                      placeholder="+91 98765 43210"
                    />
                  </Field>
                </>
              )}
              {step === 3 && (
                <>
                  <h2 ref={stepHeading} tabIndex={-1} className="text-xl font-semibold outline-none">
                    {STEPS[2]}
                  </h2>
                  <dl className="grid gap-x-6 gap-y-3 rounded-lg border p-4 text-sm sm:grid-cols-2">
                    <Review term="Institute" value={details.brandName.trim()} />
                    <Review term="Domain" value={normaliseDomainInput(details.domainName)} />
                    <Review term="Owner" value={details.ownerName.trim()} />
                    <Review term="Email" value={details.email.trim().toLowerCase()} />
                    {details.phone.trim() && <Review term="Phone" value={details.phone.trim()} />}
                    <Review term="Plan" value={plan?.name ?? "Choose a plan"} />
                    <Review term="Billing" value={label} />
                    <Review term="Amount" value={price === null ? "—" : formatRupees(price)} />
                  </dl>
                  {!plan && (
                    <p
                      role="alert"
                      className="flex items-start gap-2 rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive"
                    >
                      <CircleAlert className="mt-0.5 size-4 shrink-0" aria-hidden /> The plan “{initial.requested}” is
                      not available. Please choose a plan in the order summary.
                    </p>
                  )}
                  {plan && price === 0 && (
                    <p role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
                      This plan is not sold with {label.toLowerCase()} billing. Please choose another billing period.
                    </p>
                  )}
                  <p className="flex items-center gap-2 text-sm text-muted-foreground">
                    <ShieldCheck className="size-4 text-success" aria-hidden /> Payments are processed securely by
                    Razorpay.
                    {viewer?.role !== "business" && " You'll sign in or create a business account first."}
                  </p>
                </>
              )}

              <div className="mt-2 flex items-center justify-between gap-3 border-t pt-5">
                <Button
                  variant="outline"
                  onClick={() => goTo(Math.max(1, step - 1))}
                  disabled={step === 1 || paying || starting}
                >
                  Back
                </Button>
                {step < 3 ? (
                  <Button type="submit" disabled={step === 1 ? !step1Valid : !step2Valid}>
                    Next
                  </Button>
                ) : (
                  <div className={cn("flex flex-wrap justify-end gap-2", trialMode && "flex-row-reverse")}>
                    <Button
                      type={trialMode ? "button" : "submit"}
                      variant={trialMode ? "outline" : "default"}
                      size="lg"
                      disabled={!canPay}
                      onClick={trialMode ? () => void pay() : undefined}
                    >
                      {paying ? (
                        <>
                          <Loader2 className="size-4 animate-spin" aria-hidden /> Processing...
                        </>
                      ) : (
                        "Proceed to Payment"
                      )}
                    </Button>
                    {offerTrial && (
                      <Button
                        type={trialMode ? "submit" : "button"}
                        variant={trialMode ? "default" : "outline"}
                        size="lg"
                        disabled={!canPay}
                        onClick={trialMode ? undefined : () => void startTrial()}
                      >
                        {starting ? (
                          <>
                            <Loader2 className="size-4 animate-spin" aria-hidden /> Starting...
                          </>
                        ) : (
                          <>
                            <Hourglass className="size-4" aria-hidden /> {TRIAL_TEXTS.start}
                          </>
                        )}
                      </Button>
                    )}
                  </div>
                )}
              </div>
            </form>
          </Card>

          <OrderSummary
            plans={plans}
            plan={plan}
            billing={billing}
            onPlan={(name) => setPlanName(name || null)}
            onBilling={setBilling}
            locked={paying || starting}
            trial={trialMode}
            offerTrial={offerTrial}
          />
        </div>
      </main>
      {authOpen && (
        <BusinessAuthDialog
          open
          onOpenChange={setAuthOpen}
          prefill={{ name: details.ownerName.trim(), email: details.email.trim() }}
          signedInAs={viewer ? { name: viewer.name, role: viewer.role } : null}
          onSignedIn={onSignedIn}
        />
      )}
    </div>
  );
}

function Review({ term, value }: { term: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground">{term}</dt>
      <dd className="mt-0.5 break-words font-medium">{value}</dd>
    </div>
  );
}

function DomainStatus({ check }: { check: ReturnType<typeof useDomainCheck> }) {
  if (check.status === "checking")
    return (
      <p className="-mt-3 flex items-center gap-1.5 text-sm text-muted-foreground" aria-live="polite">
        <Loader2 className="size-3.5 animate-spin" aria-hidden /> Checking availability...
      </p>
    );
  if (check.status === "available")
    return (
      <p className="-mt-3 flex items-center gap-1.5 text-sm text-success" aria-live="polite">
        <Check className="size-4" aria-hidden /> {check.renewal ? check.message : `${check.domain} is available`}
      </p>
    );
  return <span className="sr-only" aria-live="polite" />;
}
