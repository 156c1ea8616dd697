import { useEffect, useState } from "react";
import { Form, redirect, useActionData, useNavigation } from "react-router";
import { toast } from "~/lib/toast";
import { ImageUp, Plus, Trash2 } from "lucide-react";
import type { Route } from "./+types/site";
import { loadBusinessCenter } from "~/lib/business.server";
import { getRequestContext } from "~/lib/context.server";
import { failure, tryService } from "~/lib/actions.server";
import { SiteProfileInput } from "#common/validation/site.ts";
import { parseInput } from "#common/validation/storable.ts";
import { readRows } from "~/lib/form-lists";
import { PageHeader } from "~/components/ui/page-header";
import { Button, ButtonLink } from "~/components/ui/button";
import { Input, Textarea } from "~/components/ui/input";
import { Field } from "~/components/ui/field";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Badge } from "~/components/ui/badge";
import { DEFAULT_PROGRAMS, DEFAULT_TESTIMONIALS, defaultTagline, shownPrograms } from "../../../tenants/defaults";
import { NoSubscription } from "~/components/business/no-subscription";
import { SellerInvoicesCard } from "~/components/business/seller-invoices";
import { INVOICE_TEXTS } from "#common/invoices.ts";
import { INTERNATIONAL_MESSAGES_TEXTS } from "#common/messages.ts";
import {
  LANGUAGE_NAMES,
  MESSAGE_LANGUAGES,
  MESSAGE_LANGUAGE_TEXTS,
  type MessageLanguage,
} from "#common/validation/message-language.ts";
import { LanguageChoices } from "~/components/language-choices";
import { LATE_ANSWER_SETTING_TEXTS } from "#common/mock-tests/late-answers.ts";
import { LateAnswersCard } from "~/components/business/late-answers-card";
import { SITE_TEXTS } from "#common/validation/site.ts";
import { MERCHANT_TEXTS, type MerchantAccountJson } from "#common/validation/merchant-account.ts";

export const meta: Route.MetaFunction = () => [{ title: "Website Details | Business" }];

const LOGO_MAX_BYTES = 2 * 1024 * 1024;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { center, services, site } = await loadBusinessCenter(context, request);
  if (!center) return { center: null };
  const p = center.siteProfile ?? {};
  return {
    center: {
      id: center.id,
      instituteName: center.instituteName,
      domain: center.customDomain,
      internationalMessages: center.internationalMessages,
      messageLanguage: center.messageLanguage,
      onTrial: center.trialEndsAt !== null,
      lateAnswerGraceMinutes: center.lateAnswerGraceMinutes,
      lateAnswerPolicy: center.lateAnswerPolicy,
    },
    seller: await services.invoices.sellerProfile(center.id),
    payments: {
      accounts: await services.payments.merchants.list(center.id),
      sandbox: services.payments.config.sandbox,
      // 'Connect with Razorpay' when the platform has a partner application; Razorpay returns to the
      // platform's address, where the owner's session is, so the button is offered there.
      oauth: services.payments.merchants.oauthAvailable()
        ? site.kind === "platform"
          ? ({ here: true } as const)
          : ({ here: false, at: services.payments.merchants.platformPage("/business/site#payments") } as const)
        : null,
    },
    profile: {
      tagline: p.tagline ?? "",
      address: p.address ?? "",
      phone: p.phone ?? "",
      contactEmail: p.contactEmail ?? "",
      brandColor: p.brandColor ?? "",
      programs: p.programs ?? [],
      testimonials: p.testimonials ?? [],
      logoUrl: p.logoKey ? `/media/${p.logoKey}` : null,
    },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { center, services, viewer } = await loadBusinessCenter(context, request);
  if (!center) return failure("No active subscription found.", 404);
  const form = await request.formData();
  const intent = form.get("intent");
  const current = center.siteProfile ?? {};

  if (intent === "logo" || intent === "remove-logo") {
    let logoKey: string | undefined;
    if (intent === "logo") {
      const file = form.get("logo");
      if (!(file instanceof File) || file.size === 0) return failure("Please choose an image to upload.");
      const stored = await tryService(() =>
        services.media.storeImage("logos/", file, LOGO_MAX_BYTES, "The logo must be 2 MB or smaller."),
      );
      if (!stored.ok) return stored.response;
      logoKey = stored.value;
    }
    await services.sites.updateProfile(center.id, { ...current, logoKey });
    if (current.logoKey) await services.storage.delete(current.logoKey).catch(() => {});
    return { ok: true as const, message: intent === "logo" ? "Logo updated" : "Logo removed" };
  }

  if (intent === "messages") {
    const on = form.get("international") === "on";
    const saved = await tryService(() => services.business.setInternationalMessages(center.id, on));
    if (!saved.ok) return saved.response;
    return {
      ok: true as const,
      message: on ? INTERNATIONAL_MESSAGES_TEXTS.on : INTERNATIONAL_MESSAGES_TEXTS.off,
      description: "Messages from now on follow it.",
    };
  }

  if (intent === "language") {
    const saved = await tryService(() =>
      services.messageLanguages.setForInstitute(center.id, { language: form.get("language") ?? "" }),
    );
    if (!saved.ok) return saved.response;
    return {
      ok: true as const,
      message: MESSAGE_LANGUAGE_TEXTS.instituteSaved(saved.value),
      description: "Messages from now on follow it.",
    };
  }

  if (intent === "late-answers") {
    const saved = await tryService(() =>
      services.attempts.setLateAnswerSettings(viewer, center.id, {
        graceMinutes: Number(form.get("graceMinutes") || Number.NaN),
        policy: String(form.get("policy") ?? ""),
      }),
    );
    if (!saved.ok) return saved.response;
    return { ok: true as const, message: LATE_ANSWER_SETTING_TEXTS.saved };
  }

  if (intent === "merchant-connect") {
    const connected = await tryService(() =>
      services.payments.merchants.connectWithKeys(viewer.id, center.id, {
        keyId: form.get("keyId") ?? "",
        keySecret: form.get("keySecret") ?? "",
        webhookSecret: form.get("webhookSecret") ?? "",
      }),
    );
    if (!connected.ok) return connected.response;
    return {
      ok: true as const,
      message: MERCHANT_TEXTS.connectedToast,
      description: "Students can buy your paid items now.",
    };
  }

  if (intent === "merchant-oauth") {
    const auth = getRequestContext(context).auth!;
    const started = await tryService(() =>
      services.payments.merchants.startOAuth({ userId: viewer.id, sessionId: auth.session.id }, center.id),
    );
    if (!started.ok) return started.response;
    throw redirect(started.value);
  }

  if (intent === "merchant-disconnect") {
    const ended = await tryService(() => services.payments.merchants.disconnect(viewer.id, center.id));
    if (!ended.ok) return ended.response;
    return {
      ok: true as const,
      message: MERCHANT_TEXTS.disconnectedToast,
      description: "Your paid items show 'Not on sale yet' until you connect an account.",
    };
  }

  if (intent === "billing") {
    const saved = await tryService(() =>
      services.invoices.updateSellerProfile(center.id, {
        legalName: form.get("legalName") ?? "",
        address: form.get("address") ?? "",
        state: form.get("state") ?? "",
        gstin: form.get("gstin") ?? "",
      }),
    );
    if (!saved.ok) return saved.response;
    return {
      ok: true as const,
      message: INVOICE_TEXTS.billingSaved,
      description: "Invoices issued from now on show them.",
    };
  }

  const parsed = parseInput(SiteProfileInput, {
    tagline: form.get("tagline") ?? "",
    address: form.get("address") ?? "",
    phone: form.get("phone") ?? "",
    contactEmail: form.get("contactEmail") ?? "",
    brandColor: form.get("useBrandColor") === "on" ? (form.get("brandColor") ?? "") : "",
    programs: readRows(form, "programs", ["name", "description"] as const),
    testimonials: readRows(form, "testimonials", ["name", "result", "text"] as const),
  });
  // The owner confirms the sample testimonials: they become the institute's own, shown and editable.
  const confirmSamples = intent === "confirm-testimonials";
  if (!parsed.success) return failure(parsed.issues[0].message);
  const input = parsed.output;
  const result = await tryService(() =>
    services.sites.updateProfile(center.id, {
      ...current,
      tagline: input.tagline || undefined,
      address: input.address || undefined,
      phone: input.phone || undefined,
      contactEmail: input.contactEmail || undefined,
      brandColor: input.brandColor || undefined,
      programs: input.programs.map((p) => ({ name: p.name, description: p.description || undefined })),
      testimonials:
        confirmSamples && input.testimonials.length === 0
          ? DEFAULT_TESTIMONIALS.map((t) => ({ ...t }))
          : input.testimonials.map((t) => ({ name: t.name, text: t.text, result: t.result || undefined })),
    }),
  );
  if (!result.ok) return result.response;
  return {
    ok: true as const,
    message: confirmSamples ? SITE_TEXTS.samplesConfirmed : "Website details saved",
  };
}

export default function SiteDetails({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting";
  useEffect(() => {
    if (!actionData) return;
    if (actionData.ok)
      toast.success(actionData.message, {
        description: "description" in actionData ? actionData.description : "Your website shows the change now.",
      });
    else toast.error("Could not save", { description: actionData.error, duration: 4000 });
  }, [actionData]);

  if (!loaderData.center) {
    return <NoSubscription title="Website Details" />;
  }
  const { center, profile, seller, payments } = loaderData;
  return (
    <div className="mx-auto grid max-w-4xl gap-6">
      <PageHeader
        title="Website Details"
        description={`What ${center.instituteName}'s website says. Blank contact details are hidden; until you list your own, programs show our samples (testimonials only once you add or confirm them).`}
        actions={
          <ButtonLink to="/business/website" variant="outline" reloadDocument>
            Preview website
          </ButtonLink>
        }
      />
      <PaymentAccountCard
        accounts={payments.accounts}
        sandbox={payments.sandbox}
        oauth={payments.oauth}
        saving={saving}
      />
      <LogoCard logoUrl={profile.logoUrl} saving={saving} />
      <Form method="post" className="grid gap-6">
        <input type="hidden" name="intent" value="profile" />
        <Card>
          <CardHeader>
            <CardTitle>Basics</CardTitle>
            <CardDescription>Shown at the top of your site and in its contact section.</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <Field
              label="Tagline"
              hint={`e.g. ${defaultTagline(center.instituteName, shownPrograms(profile.programs))}`}
            >
              <Input name="tagline" defaultValue={profile.tagline} maxLength={160} />
            </Field>
            <Field label="Address" hint="Your site shows no address until you add one.">
              <Input name="address" defaultValue={profile.address} maxLength={200} autoComplete="street-address" />
            </Field>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label="Phone" hint="Blank hides the phone on your site.">
                <Input name="phone" type="tel" defaultValue={profile.phone} placeholder="+91 98765 43210" />
              </Field>
              <Field label="Contact e-mail" hint="Blank hides the e-mail on your site.">
                <Input name="contactEmail" type="email" defaultValue={profile.contactEmail} />
              </Field>
            </div>
            <BrandColor initial={profile.brandColor} />
          </CardContent>
        </Card>

        <RowsEditor
          title="Programs"
          description="Your site lists the programs you add here."
          samples={DEFAULT_PROGRAMS.map((p) => ({ title: p.name, text: p.description ?? "" }))}
          prefix="programs"
          initial={profile.programs.map((p) => ({ name: p.name, description: p.description ?? "" }))}
          placeholder={{ ...DEFAULT_PROGRAMS[0] }}
          fields={[
            { key: "name", label: "Program name" },
            { key: "description", label: "Description", long: true },
          ]}
        />
        <RowsEditor
          title="Testimonials"
          description="Your site quotes the testimonials you add here."
          samplesLine={SITE_TEXTS.samplesHidden}
          confirm={
            <Button
              type="submit"
              name="intent"
              value="confirm-testimonials"
              variant="outline"
              size="sm"
              disabled={saving}
            >
              {SITE_TEXTS.confirmSamples}
            </Button>
          }
          samples={DEFAULT_TESTIMONIALS.map((t) => ({ title: `${t.name}, ${t.result}`, text: t.text }))}
          prefix="testimonials"
          initial={profile.testimonials.map((t) => ({ name: t.name, result: t.result ?? "", text: t.text }))}
          placeholder={{ ...DEFAULT_TESTIMONIALS[0] }}
          fields={[
            { key: "name", label: "Student's name" },
            { key: "result", label: "Result (e.g. NEET UG 668/720)" },
            { key: "text", label: "What they said", long: true },
          ]}
        />
        <div className="flex justify-end">
          <Button type="submit" size="lg" disabled={saving}>
            {saving ? "Saving..." : "Save website details"}
          </Button>
        </div>
      </Form>
      <SellerInvoicesCard
        profile={seller}
        instituteName={center.instituteName}
        siteAddress={profile.address}
        centerId={center.id}
        saving={saving}
      />
      <MessageLanguageCard language={center.messageLanguage} saving={saving} />
      <InternationalMessagesCard on={center.internationalMessages} onTrial={center.onTrial} saving={saving} />
      <LateAnswersCard graceMinutes={center.lateAnswerGraceMinutes} policy={center.lateAnswerPolicy} saving={saving} />
    </div>
  );
}

/**
 * The institute's own Razorpay account its students pay (decision 0040): its keys once (the
 * secrets are never shown again), the webhook URL to set in Razorpay, and a way to disconnect.
 */
function PaymentAccountCard({
  accounts,
  sandbox,
  oauth,
  saving,
}: {
  accounts: MerchantAccountJson[];
  sandbox: boolean;
  /** 'Connect with Razorpay': here, or on the platform's address (null: keys only). */
  oauth: { here: true } | { here: false; at: string } | null;
  saving: boolean;
}) {
  const connected = accounts.find((a) => a.status === "connected");
  const revoked = connected ? undefined : accounts.find((a) => a.status === "disconnected");
  return (
    <Card id="payments">
      <CardHeader>
        <CardTitle as="h2">{MERCHANT_TEXTS.title}</CardTitle>
        <CardDescription>{MERCHANT_TEXTS.description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {connected ? (
          <>
            <p className="flex flex-wrap items-center gap-2 text-sm">
              <Badge tone="success">Connected</Badge>
              <span>
                {connected.method === "oauth"
                  ? MERCHANT_TEXTS.oauthConnected(connected.razorpayAccountId ?? connected.keyId)
                  : MERCHANT_TEXTS.connected(connected.keyId)}
              </span>
            </p>
            <p className="text-sm text-muted-foreground">
              Connected {new Date(connected.connectedAt).toLocaleDateString("en-IN", { dateStyle: "medium" })}
              {connected.connectedBy ? ` by ${connected.connectedBy}` : ""}.
            </p>
            {connected.method === "oauth" ? (
              <p className="text-sm text-muted-foreground">{MERCHANT_TEXTS.oauthWebhookHint}</p>
            ) : (
              <div className="grid gap-1">
                <p className="text-sm">{MERCHANT_TEXTS.webhookHint}</p>
                <code className="rounded-md border bg-muted px-3 py-2 text-sm break-all" data-testid="webhook-url">
                  {connected.webhookUrl}
                </code>
              </div>
            )}
            <Form method="post" className="justify-self-start">
              <input type="hidden" name="intent" value="merchant-disconnect" />
              <Button type="submit" variant="outline" size="sm" disabled={saving}>
                {MERCHANT_TEXTS.disconnect}
              </Button>
            </Form>
          </>
        ) : (
          <>
            {revoked?.needsReconnection ? (
              <p role="alert" className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900">
                {MERCHANT_TEXTS.needsReconnection(revoked.razorpayAccountId ?? revoked.keyId)}
              </p>
            ) : (
              <p role="note" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
                {MERCHANT_TEXTS.notConnected}
              </p>
            )}
            {oauth?.here && (
              <Form method="post" reloadDocument className="grid gap-2 rounded-lg border p-4">
                <input type="hidden" name="intent" value="merchant-oauth" />
                <p className="text-sm">{MERCHANT_TEXTS.oauthHint}</p>
                <Button type="submit" className="justify-self-start" disabled={saving}>
                  {MERCHANT_TEXTS.connectWithRazorpay}
                </Button>
              </Form>
            )}
            {oauth && !oauth.here && (
              <p className="text-sm text-muted-foreground">
                {MERCHANT_TEXTS.oauthOnPlatform}{" "}
                <a href={oauth.at} className="underline">
                  {oauth.at}
                </a>
              </p>
            )}
            {oauth && <p className="text-sm font-medium">{MERCHANT_TEXTS.orKeys}</p>}
            {sandbox && (
              <p className="text-sm text-muted-foreground">
                {MERCHANT_TEXTS.sandboxHint}{" "}
                <a href="/_sandbox/razorpay/accounts/new" target="_blank" rel="noreferrer" className="underline">
                  {MERCHANT_TEXTS.sandboxLink}
                </a>
              </p>
            )}
            <Form method="post" className="grid gap-4" autoComplete="off">
              <input type="hidden" name="intent" value="merchant-connect" />
              <Field label="Key id" hint="Razorpay Dashboard → Account & Settings → API keys.">
                <Input name="keyId" required placeholder="rzp_live_…" spellCheck={false} />
              </Field>
              <div className="grid gap-4 sm:grid-cols-2">
                <Field label="Key secret" hint="Stored encrypted; never shown again.">
                  <Input name="keySecret" type="password" required autoComplete="off" />
                </Field>
                <Field label="Webhook secret" hint="The secret of the webhook you add in Razorpay.">
                  <Input name="webhookSecret" type="password" required autoComplete="off" />
                </Field>
              </div>
              <Button type="submit" className="justify-self-start" disabled={saving}>
                {MERCHANT_TEXTS.connect}
              </Button>
            </Form>
          </>
        )}
        {accounts.some((a) => a.status === "disconnected") && (
          <details className="text-sm text-muted-foreground">
            <summary>Earlier accounts</summary>
            <ul className="mt-2 grid gap-1">
              {accounts
                .filter((a) => a.status === "disconnected")
                .map((a) => (
                  <li key={a.id}>
                    {a.keyId}: connected {new Date(a.connectedAt).toLocaleDateString("en-IN")}, disconnected{" "}
                    {a.disconnectedAt ? new Date(a.disconnectedAt).toLocaleDateString("en-IN") : ""}
                  </li>
                ))}
            </ul>
          </details>
        )}
      </CardContent>
    </Card>
  );
}

/** The language of the messages sent on the institute's behalf (English by default). */
function MessageLanguageCard({ language, saving }: { language: MessageLanguage; saving: boolean }) {
  return (
    <Card id="language">
      <CardHeader>
        <CardTitle as="h2">{MESSAGE_LANGUAGE_TEXTS.title}</CardTitle>
        <CardDescription>{MESSAGE_LANGUAGE_TEXTS.instituteDescription}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="flex flex-wrap items-center justify-between gap-4">
          <input type="hidden" name="intent" value="language" />
          <LanguageChoices
            name="language"
            legend={MESSAGE_LANGUAGE_TEXTS.title}
            choices={MESSAGE_LANGUAGES.map((value) => ({ value, label: LANGUAGE_NAMES[value] }))}
            defaultValue={language}
            key={language}
          />
          <Button type="submit" variant="outline" size="sm" disabled={saving}>
            {MESSAGE_LANGUAGE_TEXTS.save}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}

/** Whether WhatsApp and SMS go to mobile numbers outside India too (off by default; never on a free trial). */
function InternationalMessagesCard({ on, onTrial, saving }: { on: boolean; onTrial: boolean; saving: boolean }) {
  return (
    <Card id="messages">
      <CardHeader>
        <CardTitle as="h2">{INTERNATIONAL_MESSAGES_TEXTS.title}</CardTitle>
        <CardDescription>{INTERNATIONAL_MESSAGES_TEXTS.description}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="flex flex-wrap items-center justify-between gap-4">
          <input type="hidden" name="intent" value="messages" />
          <label className="flex items-center gap-2 text-sm font-medium">
            <input
              type="checkbox"
              name="international"
              defaultChecked={on}
              disabled={onTrial && !on}
              className="size-4"
            />
            {INTERNATIONAL_MESSAGES_TEXTS.label}
          </label>
          <Button type="submit" variant="outline" size="sm" disabled={saving || (onTrial && !on)}>
            {INTERNATIONAL_MESSAGES_TEXTS.save}
          </Button>
          {onTrial && <p className="w-full text-sm text-muted-foreground">{INTERNATIONAL_MESSAGES_TEXTS.trial}</p>}
        </Form>
      </CardContent>
    </Card>
  );
}

function BrandColor({ initial }: { initial: string }) {
  const [enabled, setEnabled] = useState(Boolean(initial));
  return (
    <div className="grid gap-2">
      <label className="flex items-center gap-2 text-sm font-medium">
        <input
          type="checkbox"
          name="useBrandColor"
          checked={enabled}
          onChange={(e) => setEnabled(e.target.checked)}
          className="size-4"
        />
        Use my brand colour instead of the template's
      </label>
      <label className="flex items-center gap-3 text-sm text-muted-foreground">
        <input
          type="color"
          name="brandColor"
          defaultValue={initial || "#4338ca"}
          disabled={!enabled}
          className="h-9 w-14 cursor-pointer rounded border"
          aria-label="Brand colour"
        />
        Buttons, links and accents use this colour.
      </label>
    </div>
  );
}

type Row = Record<string, string>;

function RowsEditor({
  title,
  description,
  prefix,
  initial,
  fields,
  placeholder,
  samples,
  samplesLine,
  confirm,
}: {
  title: string;
  description: string;
  /** Samples for the owner while this list is empty, marked as such. */
  samples: { title: string; text: string }[];
  /** What the owner is told about the samples (default: the site shows them until you add your own). */
  samplesLine?: string;
  /** A way to take the samples as the institute's own. */
  confirm?: React.ReactNode;
  prefix: string;
  initial: Row[];
  fields: { key: string; label: string; long?: boolean }[];
  placeholder: { [key: string]: string | undefined };
}) {
  // One blank row is always offered, so the list can grow without JavaScript too.
  const [rows, setRows] = useState<{ id: number; values: Row }[]>(() =>
    [...initial, {}].map((values, id) => ({ id, values })),
  );
  const [nextKey, setNextKey] = useState(rows.length);
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {initial.length === 0 && (
          <section
            aria-label={`Sample ${title.toLowerCase()}`}
            className="grid gap-2 rounded-lg border border-dashed bg-muted/40 p-4"
          >
            <p className="text-sm font-medium">
              {samplesLine ?? `Until you add your own, your site shows these sample ${title.toLowerCase()}:`}
            </p>
            <ul className="grid gap-2">
              {samples.map((s) => (
                <li key={s.title} className="text-sm">
                  <Badge tone="warning" className="mr-2">
                    Sample
                  </Badge>
                  <span className="font-medium">{s.title}</span>
                  <span className="block text-muted-foreground">{s.text}</span>
                </li>
              ))}
            </ul>
            {confirm && <div className="justify-self-start">{confirm}</div>}
          </section>
        )}
        {rows.map((row, index) => (
          <fieldset key={row.id} className="grid gap-3 rounded-lg border p-4">
            <legend className="px-1 text-sm font-medium text-muted-foreground">
              {title.replace(/s$/, "")} {index + 1}
            </legend>
            {fields.map((f) => (
              <Field key={f.key} label={f.label}>
                {f.long ? (
                  <Textarea
                    name={`${prefix}.${index}.${f.key}`}
                    defaultValue={row.values[f.key] ?? ""}
                    placeholder={placeholder[f.key]}
                    rows={2}
                  />
                ) : (
                  <Input
                    name={`${prefix}.${index}.${f.key}`}
                    defaultValue={row.values[f.key] ?? ""}
                    placeholder={placeholder[f.key]}
                  />
                )}
              </Field>
            ))}
            <Button
              type="button"
              variant="ghost"
              size="sm"
              className="justify-self-end text-destructive"
              onClick={() => setRows((r) => r.filter((x) => x.id !== row.id))}
            >
              <Trash2 className="size-4" aria-hidden /> Remove
            </Button>
          </fieldset>
        ))}
        <Button
          type="button"
          variant="outline"
          className="justify-self-start"
          onClick={() => {
            setRows((r) => [...r, { id: nextKey, values: {} }]);
            setNextKey((k) => k + 1);
          }}
        >
          <Plus className="size-4" aria-hidden /> Add {title.replace(/s$/, "").toLowerCase()}
        </Button>
      </CardContent>
    </Card>
  );
}

function LogoCard({ logoUrl, saving }: { logoUrl: string | null; saving: boolean }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Logo</CardTitle>
        <CardDescription>PNG, JPEG or WebP, up to 2 MB. Square images look best.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center gap-4">
        {logoUrl ? (
          <img src={logoUrl} alt="Your logo" className="size-16 rounded-lg border object-cover" />
        ) : (
          <span className="grid size-16 place-items-center rounded-lg border border-dashed text-muted-foreground">
            <ImageUp className="size-6" aria-hidden />
          </span>
        )}
        <Form method="post" encType="multipart/form-data" className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="intent" value="logo" />
          <input
            type="file"
            name="logo"
            accept="image/png,image/jpeg,image/webp"
            required
            aria-label="Logo image"
            className="max-w-60 text-sm"
          />
          <Button type="submit" variant="outline" size="sm" disabled={saving}>
            Upload logo
          </Button>
        </Form>
        {logoUrl && (
          <Form method="post">
            <input type="hidden" name="intent" value="remove-logo" />
            <Button type="submit" variant="ghost" size="sm" disabled={saving}>
              Remove
            </Button>
          </Form>
        )}
      </CardContent>
    </Card>
  );
}
