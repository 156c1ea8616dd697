import { useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { toast } from "~/lib/toast";
import { Camera } from "lucide-react";
import type { Viewer } from "~/lib/viewer";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { UserAvatar } from "~/components/shell/user-avatar";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { PasswordInput } from "~/components/ui/password-input";
import { RESET_TEXTS } from "#common/validation/account-security.ts";
import { FormError, FormNote } from "~/components/ui/form-message";
import { NewPasswordFields, OneTimeCodeField } from "~/components/auth-fields";
import { InvoiceTable, StateSelect } from "~/components/invoices";
import type { InvoiceJson } from "#common/invoices.ts";
import {
  ACCOUNT_LANGUAGE_CHOICES,
  LANGUAGE_NAMES,
  MESSAGE_LANGUAGE_TEXTS,
  type AccountLanguageChoice,
} from "#common/validation/message-language.ts";
import { LanguageChoices } from "~/components/language-choices";

type UploadResult = { ok: true; avatarUrl: string } | { ok: false; error: string };

/**
 * Name, email and role with a profile photo that can be replaced: the chosen image previews at
 * once and is saved on the server (PNG, JPEG or WebP up to 2 MB).
 */
export function AccountDetails({
  viewer,
  roleLabel,
  nameLabel = "Name",
}: {
  viewer: Viewer;
  roleLabel?: string;
  nameLabel?: string;
}) {
  const fetcher = useFetcher<UploadResult>();
  const input = useRef<HTMLInputElement>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const [submittedPreview, setSubmittedPreview] = useState<string | null>(null);
  const uploading = fetcher.state !== "idle";
  const result = fetcher.state === "idle" ? fetcher.data : undefined;

  useEffect(() => {
    if (!result) return;
    if (result.ok) toast.success("Profile photo updated");
    else toast.error("Upload failed", { description: result.error, duration: 4000 });
  }, [result]);

  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );

  const saved = result?.ok ? result.avatarUrl : viewer.avatarUrl;
  // A refused upload falls back to the saved photo until another file is chosen.
  const refused = result && !result.ok && preview === submittedPreview;
  const shown = refused ? viewer.avatarUrl : (preview ?? saved);

  return (
    <Card>
      <CardHeader>
        <CardTitle>Account</CardTitle>
      </CardHeader>
      <CardContent className="grid gap-6 md:grid-cols-[auto_1fr] md:items-center">
        <fetcher.Form
          method="post"
          encType="multipart/form-data"
          className="flex flex-col items-center gap-3"
          onSubmit={() => setSubmittedPreview(preview)}
        >
          <div className="relative">
            <UserAvatar name={viewer.name} url={shown} size={96} />
            <button
              type="button"
              onClick={() => input.current?.click()}
              className="absolute bottom-0 right-0 grid size-8 place-items-center rounded-full border bg-background shadow hover:bg-muted"
              aria-label="Choose a profile photo"
            >
              <Camera className="size-4" aria-hidden />
            </button>
          </div>
          <input
            ref={input}
            type="file"
            name="avatar"
            accept="image/png,image/jpeg,image/webp"
            className="sr-only"
            aria-label="Profile photo"
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (!file) return;
              if (file.size > 2 * 1024 * 1024) {
                toast.error("Upload failed", { description: "The avatar must be 2 MB or smaller.", duration: 4000 });
                event.target.value = "";
                return;
              }
              setPreview(URL.createObjectURL(file));
            }}
          />
          <Button type="submit" size="sm" variant="outline" disabled={!preview || uploading || Boolean(refused)}>
            {uploading ? "Uploading..." : "Save photo"}
          </Button>
        </fetcher.Form>
        <dl className="grid gap-3 text-sm sm:grid-cols-[8rem_1fr]">
          <dt className="text-muted-foreground">{nameLabel}</dt>
          <dd className="font-medium">{viewer.name}</dd>
          <dt className="text-muted-foreground">Email</dt>
          <dd className="font-medium break-all">{viewer.email}</dd>
          <dt className="text-muted-foreground">Role</dt>
          <dd className="font-medium capitalize">{roleLabel ?? viewer.role}</dd>
        </dl>
      </CardContent>
      <MobileNumber />
      <ChangeEmail />
      <ChangePassword />
      <MessagesLanguage />
      <Invoices />
    </Card>
  );
}

type ChangeResult = { ok: true } | { ok: false; error: string };

/** Change password: the current one, the new one twice; other devices are signed out. */
function ChangePassword() {
  const fetcher = useFetcher<ChangeResult>();
  const form = useRef<HTMLFormElement>(null);
  const saving = fetcher.state !== "idle";
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (!result) return;
    if (result.ok) {
      toast.success("Password changed", { description: RESET_TEXTS.changed, duration: 5000 });
      form.current?.reset();
    }
  }, [result]);
  return (
    <AccountSection title="Change password">
      <fetcher.Form ref={form} method="post" action="/account/password" className="grid max-w-md gap-4">
        <Field label="Current password">
          <PasswordInput name="currentPassword" autoComplete="current-password" required />
        </Field>
        <NewPasswordFields />
        {result && !result.ok && <FormError>{result.error}</FormError>}
        <Button type="submit" variant="outline" className="justify-self-start" disabled={saving}>
          {saving ? "Saving..." : "Change password"}
        </Button>
      </fetcher.Form>
    </AccountSection>
  );
}

type PhoneStep = { ok: true; step: "sent" | "verified"; phone: string; message: string } | { ok: false; error: string };

/** Mobile number: add or change it with the code sent to it; a verified number can sign in with a code. */
function MobileNumber() {
  const current = useFetcher<{ phone: string | null }>();
  const fetcher = useFetcher<PhoneStep>();
  const { load } = current;
  useEffect(() => {
    load("/account/phone");
  }, [load]);
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  const awaitingCode = result?.ok && result.step === "sent";
  const verified = result?.ok && result.step === "verified" ? result.phone : current.data?.phone;
  useEffect(() => {
    if (result?.ok && result.step === "verified")
      toast.success("Mobile number verified", { description: result.message });
  }, [result]);
  return (
    <AccountSection
      title="Mobile number"
      description={
        verified ? (
          <>
            <span className="font-medium text-foreground">{verified}</span> is verified: you can sign in with a code
            sent to it.
          </>
        ) : (
          "Add your mobile number to get messages on WhatsApp and to sign in with a code."
        )
      }
    >
      <fetcher.Form method="post" action="/account/phone" className="grid max-w-md gap-4">
        {awaitingCode ? (
          <>
            <FormNote>{result.message}</FormNote>
            <input type="hidden" name="intent" value="verify" />
            <OneTimeCodeField />
          </>
        ) : (
          <Field label={verified ? "New mobile number" : "Mobile number"}>
            <Input name="phone" type="tel" autoComplete="tel" placeholder="+91 98765 43210" required />
          </Field>
        )}
        {result && !result.ok && <FormError>{result.error}</FormError>}
        <Button type="submit" variant="outline" className="justify-self-start" disabled={fetcher.state !== "idle"}>
          {awaitingCode ? "Verify" : "Send code"}
        </Button>
      </fetcher.Form>
    </AccountSection>
  );
}

/** Change e-mail: the new address and the current password; the link sent there makes the change. */
function ChangeEmail() {
  const fetcher = useFetcher<{ ok: true; message: string } | { ok: false; error: string }>();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  return (
    <AccountSection title="Change e-mail">
      {result?.ok ? (
        <FormNote className="max-w-md">{result.message}</FormNote>
      ) : (
        <fetcher.Form method="post" action="/account/email" className="grid max-w-md gap-4">
          <Field label="New e-mail">
            <Input name="email" type="email" autoComplete="email" required />
          </Field>
          <Field label="Current password" hint="To make sure it is you.">
            <PasswordInput name="currentPassword" autoComplete="current-password" required />
          </Field>
          {result && !result.ok && <FormError>{result.error}</FormError>}
          <Button type="submit" variant="outline" className="justify-self-start" disabled={fetcher.state !== "idle"}>
            Send confirmation link
          </Button>
        </fetcher.Form>
      )}
    </AccountSection>
  );
}

type LanguageSaved = { ok: true; language: AccountLanguageChoice; message: string } | { ok: false; error: string };

/** Language of messages: English, हिन्दी, or the institute's choice (the default). */
function MessagesLanguage() {
  const current = useFetcher<{ language: AccountLanguageChoice }>();
  const saver = useFetcher<LanguageSaved>();
  const { load } = current;
  useEffect(() => {
    load("/account/language");
  }, [load]);
  const result = saver.state === "idle" ? saver.data : undefined;
  useEffect(() => {
    if (result?.ok) toast.success(result.message);
  }, [result]);
  const language = result?.ok ? result.language : current.data?.language;
  return (
    <AccountSection title={MESSAGE_LANGUAGE_TEXTS.title} description={MESSAGE_LANGUAGE_TEXTS.accountDescription}>
      {language ? (
        <saver.Form id="message-language" method="post" action="/account/language" className="grid max-w-md gap-4">
          <LanguageChoices
            name="language"
            legend={MESSAGE_LANGUAGE_TEXTS.title}
            choices={ACCOUNT_LANGUAGE_CHOICES.map((value) => ({
              value,
              label: value === "institute" ? MESSAGE_LANGUAGE_TEXTS.instituteChoice : LANGUAGE_NAMES[value],
            }))}
            defaultValue={language}
            key={language}
          />
          {result && !result.ok && <FormError>{result.error}</FormError>}
          <Button type="submit" variant="outline" className="justify-self-start" disabled={saver.state !== "idle"}>
            {saver.state !== "idle" ? "Saving..." : MESSAGE_LANGUAGE_TEXTS.save}
          </Button>
        </saver.Form>
      ) : (
        <p className="text-sm text-muted-foreground">Loading...</p>
      )}
    </AccountSection>
  );
}

type BillingState = { state: string | null; invoices: InvoiceJson[] };
type StateSaved = { ok: true; state: string | null; message: string } | { ok: false; error: string };

/** Invoices: the state they name as the place of supply, and every invoice and credit note with its PDF. */
function Invoices() {
  const billing = useFetcher<BillingState>();
  const saver = useFetcher<StateSaved>();
  const { load } = billing;
  useEffect(() => {
    load("/account/billing");
  }, [load]);
  const result = saver.state === "idle" ? saver.data : undefined;
  useEffect(() => {
    if (result?.ok) toast.success("State saved", { description: result.message });
  }, [result]);
  const current = billing.data;
  return (
    <AccountSection
      title="Invoices"
      description="Every payment you make comes with a GST invoice. Your state decides which taxes it shows."
    >
      {current ? (
        <>
          <saver.Form method="post" action="/account/billing" className="flex max-w-md flex-wrap items-end gap-3">
            <Field label="Your state" className="min-w-56 flex-1">
              <StateSelect defaultValue={current.state ?? ""} key={current.state ?? ""} />
            </Field>
            <Button type="submit" variant="outline" disabled={saver.state !== "idle"}>
              {saver.state !== "idle" ? "Saving..." : "Save state"}
            </Button>
          </saver.Form>
          {result && !result.ok && <FormError className="mt-2">{result.error}</FormError>}
          <div className="mt-4">
            {current.invoices.length === 0 ? (
              <p className="text-sm text-muted-foreground">No invoices yet.</p>
            ) : (
              <InvoiceTable invoices={current.invoices} />
            )}
          </div>
        </>
      ) : (
        <p className="text-sm text-muted-foreground">Loading...</p>
      )}
    </AccountSection>
  );
}

/** One of the account card's sections under the details: a title, then its form. */
function AccountSection({
  title,
  description,
  children,
}: {
  title: string;
  description?: React.ReactNode;
  children: React.ReactNode;
}) {
  return (
    <CardContent className="border-t pt-6">
      <h3 className={description ? "mb-1 font-semibold" : "mb-4 font-semibold"}>{title}</h3>
      {description && <p className="mb-4 text-sm text-muted-foreground">{description}</p>}
      {children}
    </CardContent>
  );
}
