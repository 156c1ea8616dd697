import { useEffect } from "react";
import { useFetcher } from "react-router";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input, Textarea } from "~/components/ui/input";
import { Button } from "~/components/ui/button";
import { toast } from "~/lib/toast";
import { FEE_SETTINGS_LIMITS, type FeeSettingsJson } from "#common/validation/fee-settings.ts";

const ROUTE = "/business/fees/settings";

type Saved = { ok: true; message: string; settings: FeeSettingsJson } | { ok: false; error: string };

/**
 * The institute's fee settings as one card (issue 42 §1, §4, §5): reminder days, when an overdue
 * student is a defaulter and the policy they are shown, the bounce fee, part payments online.
 * It loads and saves through its own route, so the Fees page only places it.
 */
export function FeeSettingsForm() {
  const loader = useFetcher<{ settings: FeeSettingsJson | null }>();
  const saver = useFetcher<Saved>();
  useEffect(() => {
    if (loader.state === "idle" && !loader.data) loader.load(ROUTE);
  }, [loader]);
  useEffect(() => {
    if (saver.state !== "idle" || !saver.data) return;
    if (saver.data.ok) toast.success(saver.data.message);
    else toast.error("Could not save the fee settings", { description: saver.data.error });
  }, [saver.state, saver.data]);
  const settings = saver.data?.ok ? saver.data.settings : loader.data?.settings;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Fee settings</CardTitle>
      </CardHeader>
      <CardContent>
        {!settings ? (
          <p className="text-sm text-muted-foreground">{loader.data ? "No institute yet." : "Loading…"}</p>
        ) : (
          <saver.Form
            method="post"
            action={ROUTE}
            key={settings.updatedAt ?? "defaults"}
            className="grid gap-4 sm:grid-cols-3"
            aria-label="Fee settings"
          >
            <Field label="Remind days before the last date">
              <Input
                name="remindDaysBefore"
                type="number"
                min={FEE_SETTINGS_LIMITS.remindDaysBefore[0]}
                max={FEE_SETTINGS_LIMITS.remindDaysBefore[1]}
                required
                defaultValue={settings.remindDaysBefore}
              />
            </Field>
            <Field label="Remind days after the last date">
              <Input
                name="remindDaysAfter"
                type="number"
                min={FEE_SETTINGS_LIMITS.remindDaysAfter[0]}
                max={FEE_SETTINGS_LIMITS.remindDaysAfter[1]}
                required
                defaultValue={settings.remindDaysAfter}
              />
            </Field>
            <Field label="Defaulter after days overdue">
              <Input
                name="defaulterAfterDays"
                type="number"
                min={FEE_SETTINGS_LIMITS.defaulterAfterDays[0]}
                max={FEE_SETTINGS_LIMITS.defaulterAfterDays[1]}
                required
                defaultValue={settings.defaulterAfterDays}
              />
            </Field>
            <Field label="Bounce fee (₹)" hint="Charged when a cheque bounces; 0 for none">
              <Input name="bounceFee" inputMode="decimal" defaultValue={settings.bounceFee} />
            </Field>
            <label className="flex items-center gap-2 self-center text-sm">
              <input type="checkbox" name="remindOnDay" defaultChecked={settings.remindOnDay} />
              Remind on the last date
            </label>
            <label className="flex items-center gap-2 self-center text-sm">
              <input type="checkbox" name="allowPartialOnline" defaultChecked={settings.allowPartialOnline} />
              Allow part payments online
            </label>
            <Field
              label="What a defaulter loses (shown to students)"
              hint="For example: new lectures are locked after 15 days overdue; a test already paid for never is."
              className="sm:col-span-3"
            >
              <Textarea
                name="defaulterPolicy"
                rows={3}
                maxLength={FEE_SETTINGS_LIMITS.policy}
                defaultValue={settings.defaulterPolicy ?? ""}
              />
            </Field>
            <label className="flex items-center gap-2 text-sm sm:col-span-3">
              <input
                type="checkbox"
                name="defaulterHoldsNewContent"
                defaultChecked={settings.defaulterHoldsNewContent}
              />
              Enforce it: hold back batch lectures and content added after a student became a defaulter, until they pay
              (tests are never held back)
            </label>
            <div>
              <Button type="submit" disabled={saver.state !== "idle"}>
                Save fee settings
              </Button>
            </div>
          </saver.Form>
        )}
      </CardContent>
    </Card>
  );
}
