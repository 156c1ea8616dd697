import { Form } from "react-router";
import { Download } from "lucide-react";
import type { SellerProfile } from "#common/validation/billing.ts";
import { Button } from "~/components/ui/button";
import { Input, Textarea } from "~/components/ui/input";
import { Field } from "~/components/ui/field";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { StateSelect } from "~/components/invoices";
import { InvoiceExport } from "~/components/invoice-export";

/**
 * The institute as the seller on its students' invoices: legal name, address, state and GSTIN
 * (without a GSTIN its invoices are bills of supply), and the CSV of every invoice for its accountant.
 */
export function SellerInvoicesCard({
  profile,
  instituteName,
  siteAddress,
  centerId,
  saving,
}: {
  profile: SellerProfile;
  instituteName: string;
  siteAddress: string;
  centerId: string;
  saving: boolean;
}) {
  return (
    <Card id="invoices">
      <CardHeader>
        <CardTitle as="h2">Invoices</CardTitle>
        <CardDescription>
          Each sale of your courses and tests comes with a GST invoice from {instituteName}. Without a GSTIN it is a
          bill of supply, with no tax charged.
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        <Form method="post" className="grid gap-4">
          <input type="hidden" name="intent" value="billing" />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Legal name" hint={`Blank: ${instituteName}.`}>
              <Input name="legalName" defaultValue={profile.legalName} maxLength={200} placeholder={instituteName} />
            </Field>
            <Field label="GSTIN" hint="15 characters; leave blank if not registered.">
              <Input
                name="gstin"
                defaultValue={profile.gstin}
                maxLength={20}
                placeholder="19AABCP1234C1ZX"
                className="uppercase"
                autoComplete="off"
              />
            </Field>
          </div>
          <Field label="Registered address" hint={siteAddress ? `Blank: ${siteAddress}.` : undefined}>
            <Textarea name="address" defaultValue={profile.address} maxLength={500} rows={2} />
          </Field>
          <Field label="State" hint="Where you are registered; a GSTIN's first two digits name it.">
            <StateSelect defaultValue={profile.state} />
          </Field>
          <Button type="submit" variant="outline" className="justify-self-start" disabled={saving}>
            {saving ? "Saving..." : "Save invoice details"}
          </Button>
        </Form>
        <div className="border-t pt-4">
          <InvoiceExport centerId={centerId}>
            <Download className="size-4" aria-hidden /> Download invoices (CSV)
          </InvoiceExport>
        </div>
      </CardContent>
    </Card>
  );
}
