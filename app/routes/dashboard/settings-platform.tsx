import { useEffect } from "react";
import { useFetcher } from "react-router";
import { toast } from "sonner";
import { Building, FileSpreadsheet, Globe, LifeBuoy, Save } from "lucide-react";
import type { Route } from "./+types/settings-platform";
import { getRequestContext } from "~/lib/context.server";
import { getViewer } from "~/lib/session.server";
import { tryService } from "~/lib/actions.server";
import { SETTINGS_TEXTS, type SettingKey, type SettingsJson } from "#common/validation/settings.ts";
import { PageHeader } from "~/components/ui/page-header";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Input } from "~/components/ui/input";
import { Field } from "~/components/ui/field";
import { Button } from "~/components/ui/button";
import { InvoiceExport } from "~/components/invoice-export";
import { formatTime } from "#common/time.ts";

export const meta: Route.MetaFunction = () => [{ title: "Platform Settings | Pathshala Admin" }];

export async function loader({ context }: Route.LoaderArgs) {
  return { settings: await getRequestContext(context).services.settings.get() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = getViewer(context)!;
  const form = Object.fromEntries(await request.formData());
  const saved = await tryService(() => getRequestContext(context).services.settings.update(form, viewer.id));
  if (!saved.ok) return saved.response;
  return { ok: true as const, settings: saved.value };
}

interface FieldSpec {
  key: SettingKey;
  label: string;
  hint: string;
  placeholder: string;
  type?: string;
}

const GROUPS: { title: string; description: string; icon: typeof Globe; fields: FieldSpec[] }[] = [
  {
    title: "Domains",
    description: "Where institutes point their domains. Setup Details shows these as the DNS records to create.",
    icon: Globe,
    fields: [
      {
        key: "dnsTargetIp",
        label: "A record target",
        hint: "The IPv4 address of your web server or load balancer.",
        placeholder: "203.0.113.10",
      },
      {
        key: "dnsTargetHost",
        label: "CNAME target",
        hint: "The host name www-style names should point to.",
        placeholder: "sites.pathshala.in",
      },
    ],
  },
  {
    title: "Support",
    description: "How institutes reach you. Help & Contact in every business area shows these.",
    icon: LifeBuoy,
    fields: [
      {
        key: "supportEmail",
        label: "Support email",
        hint: "Replies within 24 hours are promised.",
        placeholder: "support@yourcompany.in",
        type: "email",
      },
      {
        key: "supportPhone",
        label: "Support phone",
        hint: "Shown with the hours Mon-Fri 9AM-6PM IST.",
        placeholder: "+91 33 4000 1234",
        type: "tel",
      },
      {
        key: "supportChatUrl",
        label: "Live chat link",
        hint: "A chat or WhatsApp link (https://…).",
        placeholder: "https://wa.me/91…",
        type: "url",
      },
    ],
  },
  {
    title: "Legal identity",
    description:
      "The company that bills institutes, printed on their invoices. Without a GSTIN plans are sold on bills of supply, with no tax.",
    icon: Building,
    fields: [
      { key: "legalName", label: "Legal name", hint: "As registered.", placeholder: "Your Company Pvt Ltd" },
      {
        key: "legalAddress",
        label: "Registered address",
        hint: "Street, city, PIN code, state.",
        placeholder: "Street, City 700001, West Bengal",
      },
      { key: "gstin", label: "GSTIN", hint: "15 characters.", placeholder: "19AABCP1234C1ZX" },
      {
        key: "sacCode",
        label: "SAC code",
        hint: "On every invoice, the platform's and the institutes'.",
        placeholder: "999293",
      },
      { key: "gstRate", label: "GST rate (%)", hint: "0, 5, 12, 18 or 28; prices include it.", placeholder: "18" },
    ],
  },
];

/** The platform's own details, edited here and kept in the database; the environment only gives first defaults. */
export default function PlatformSettings({ loaderData }: Route.ComponentProps) {
  const saver = useFetcher<typeof action>();
  const result = saver.data;
  const settings: SettingsJson = result?.ok ? result.settings : loaderData.settings;
  const saving = saver.state !== "idle";

  useEffect(() => {
    if (!result || saver.state !== "idle") return;
    if (result.ok) toast.success(SETTINGS_TEXTS.saved, { duration: 5000 });
    else toast.error("Save failed", { description: result.error, duration: 4000 });
  }, [result, saver.state]);

  return (
    <div className="mx-auto w-full max-w-3xl">
      <PageHeader
        title="Platform Settings"
        description="An empty field uses its default, shown under it. Changes apply at once, everywhere."
      />
      <saver.Form method="post" className="grid gap-6" key={settings.updatedAt ?? "defaults"}>
        {GROUPS.map(({ title, description, icon: Icon, fields }) => (
          <Card key={title}>
            <CardHeader>
              <CardTitle as="h2" className="flex items-center gap-2">
                <Icon className="size-5" aria-hidden /> {title}
              </CardTitle>
              <CardDescription>{description}</CardDescription>
            </CardHeader>
            <CardContent className="grid gap-4 sm:grid-cols-2">
              {fields.map((f) => (
                <Field
                  key={f.key}
                  label={f.label}
                  className={f.key === "legalAddress" ? "sm:col-span-2" : undefined}
                  hint={
                    <>
                      {f.hint}{" "}
                      <span data-testid={`default-${f.key}`}>Default: {settings.defaults[f.key] ?? "none"}.</span>
                    </>
                  }
                >
                  <Input
                    name={f.key}
                    type={f.type ?? "text"}
                    defaultValue={settings.stored[f.key] ?? ""}
                    placeholder={settings.defaults[f.key] ?? f.placeholder}
                    autoComplete="off"
                  />
                </Field>
              ))}
            </CardContent>
          </Card>
        ))}
        <div className="flex items-center justify-end gap-3">
          {settings.updatedAt && (
            <p className="text-xs text-muted-foreground">Last saved {formatTime(settings.updatedAt)}</p>
          )}
          <Button type="submit" disabled={saving}>
            <Save className="size-4" aria-hidden /> {saving ? "Saving..." : "Save settings"}
          </Button>
        </div>
      </saver.Form>
      <Card className="mt-6">
        <CardHeader>
          <CardTitle as="h2" className="flex items-center gap-2">
            <FileSpreadsheet className="size-5" aria-hidden /> Invoices
          </CardTitle>
          <CardDescription>
            Every invoice, bill of supply and credit note the platform has issued (for plans, and for content sold
            outside any institute), as a spreadsheet for your accountant.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <InvoiceExport>Download invoices (CSV)</InvoiceExport>
        </CardContent>
      </Card>
    </div>
  );
}
