import { useEffect, useState } from "react";
import { Form, Link, useFetcher, useRevalidator } from "react-router";
import { toast } from "~/lib/toast";
import {
  Building2,
  CalendarPlus,
  ExternalLink,
  MoreHorizontal,
  Pencil,
  Plus,
  Power,
  RefreshCw,
  RotateCcw,
  Search,
} from "lucide-react";
import type { Route } from "./+types/centers";
import { centerListAction, loadCenters, type CenterActionResult } from "~/lib/center-admin.server";
import { CENTER_TEXTS, daysLeft, expiryLabel, goUrl, type CenterJson } from "#common/validation/centers.ts";
import { formatDate, formatRupees } from "#common/format.ts";
import { PageHeader } from "~/components/ui/page-header";
import { Button, ButtonLink, buttonClasses } from "~/components/ui/button";
import { Badge } from "~/components/ui/badge";
import { Input, Label, Select } from "~/components/ui/input";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { EmptyState } from "~/components/ui/empty-state";
import { Dialog, DialogContent } from "~/components/ui/dialog";
import { AlertDialog, DropdownMenu } from "radix-ui";
import { CenterForm } from "~/components/admin/center-form";
import { cn } from "~/lib/cn";

export const meta: Route.MetaFunction = () => [{ title: "Center List | Pathshala Admin" }];

export function loader({ context, request }: Route.LoaderArgs) {
  return loadCenters(context, request);
}

export async function action({ request, context }: Route.ActionArgs) {
  return centerListAction(context, await request.formData());
}

export default function CenterList({ loaderData }: Route.ComponentProps) {
  const { centers, total, page, q, loadFailed, now } = loaderData;
  const revalidator = useRevalidator();
  const refreshing = revalidator.state === "loading";
  const [editing, setEditing] = useState<CenterJson | null>(null);
  const [extending, setExtending] = useState<CenterJson | null>(null);

  useEffect(() => {
    if (loadFailed) toast.error("Error", { description: CENTER_TEXTS.loadFailed, duration: 4000 });
  }, [loaderData, loadFailed]);

  const pages = Math.max(1, Math.ceil(total / 50));
  const pageLink = (p: number) =>
    `?${new URLSearchParams({ ...(q ? { q } : {}), ...(p > 1 ? { page: String(p) } : {}) })}`;

  return (
    <div className="mx-auto w-full max-w-7xl">
      <PageHeader
        title="Center List"
        description="Every institute on the platform: purchased plans and the sub centers you created."
        actions={
          <>
            <Button variant="outline" onClick={() => revalidator.revalidate()} disabled={refreshing}>
              <RefreshCw className={cn("size-4", refreshing && "animate-spin")} aria-hidden />{" "}
              {refreshing ? "Refreshing..." : "Refresh"}
            </Button>
            <ButtonLink to="/dashboard/centers/create">
              <Plus className="size-4" aria-hidden /> Add Center
            </ButtonLink>
          </>
        }
      />

      <Form method="get" role="search" className="mb-4 flex max-w-md items-center gap-2">
        <Label htmlFor="center-search" className="sr-only">
          Search centers
        </Label>
        <Input id="center-search" name="q" defaultValue={q} placeholder="Search by name or domain" type="search" />
        <Button type="submit" variant="outline" aria-label="Search">
          <Search className="size-4" aria-hidden />
        </Button>
      </Form>

      {loadFailed ? (
        <EmptyState icon={<Building2 />} title={CENTER_TEXTS.loadFailed}>
          <Button variant="outline" size="sm" onClick={() => revalidator.revalidate()}>
            Try again
          </Button>
        </EmptyState>
      ) : centers.length === 0 ? (
        <EmptyState icon={<Building2 />} title={q ? `No centers match “${q}”.` : "No centers yet."}>
          <ButtonLink to="/dashboard/centers/create" size="sm">
            Add Center
          </ButtonLink>
        </EmptyState>
      ) : (
        <>
          <div className="hidden md:block">
            <Table aria-label="Centers" className="[&_td]:px-3 [&_th]:px-3">
              <THead>
                <tr>
                  <Th>Center Name</Th>
                  <Th>Domain Name</Th>
                  <Th>Website</Th>
                  <Th>Start Date</Th>
                  <Th>Expire Date</Th>
                  <Th>Status</Th>
                  <Th className="text-right">Actions</Th>
                </tr>
              </THead>
              <TBody>
                {centers.map((center) => (
                  <Tr key={center._id}>
                    <Td>
                      <p className="font-medium">{center.name}</p>
                      <p
                        className="max-w-48 truncate text-xs text-muted-foreground"
                        title={center.owner ? `${center.owner.name} (${center.owner.email})` : undefined}
                      >
                        {center.plan ?? "Sub center"}
                      </p>
                      <PaymentNote center={center} now={now} />
                    </Td>
                    <Td className="whitespace-nowrap">
                      {center.domain ??
                        (center.pendingDomain ? (
                          <span className="text-muted-foreground" title="Asked for by its owner, not proven yet">
                            {center.pendingDomain} (not proven)
                          </span>
                        ) : (
                          <span className="text-muted-foreground">—</span>
                        ))}
                    </Td>
                    <Td className="max-w-44 truncate">
                      {center.website ? (
                        <a
                          href={center.website}
                          target="_blank"
                          rel="noopener noreferrer"
                          className="text-primary hover:underline"
                        >
                          {center.website.replace(/^https?:\/\//, "")}
                        </a>
                      ) : (
                        <span className="text-muted-foreground">—</span>
                      )}
                    </Td>
                    <Td className="whitespace-nowrap">{formatDate(center.startsAt)}</Td>
                    <Td className="whitespace-nowrap">
                      <Expiry center={center} now={now} />
                    </Td>
                    <Td>
                      <StatusBadge center={center} now={now} />
                    </Td>
                    <Td>
                      <RowActions
                        center={center}
                        onEdit={() => setEditing(center)}
                        onExtend={() => setExtending(center)}
                      />
                    </Td>
                  </Tr>
                ))}
              </TBody>
            </Table>
          </div>

          <ul className="grid gap-3 md:hidden" aria-label="Centers">
            {centers.map((center) => (
              <li key={center._id} className="rounded-xl border bg-card p-4 shadow-sm">
                <div className="flex items-start justify-between gap-2">
                  <div className="min-w-0">
                    <p className="font-medium">{center.name}</p>
                    <p className="truncate text-sm text-muted-foreground">
                      {center.domain ?? (center.pendingDomain ? `${center.pendingDomain} (not proven)` : center.slug)}
                    </p>
                  </div>
                  <StatusBadge center={center} now={now} />
                </div>
                <PaymentNote center={center} now={now} />
                <dl className="mt-3 grid grid-cols-2 gap-2 text-sm">
                  <div>
                    <dt className="text-xs text-muted-foreground">Start Date</dt>
                    <dd>{formatDate(center.startsAt)}</dd>
                  </div>
                  <div>
                    <dt className="text-xs text-muted-foreground">Expire Date</dt>
                    <dd>
                      <Expiry center={center} now={now} />
                    </dd>
                  </div>
                </dl>
                <div className="mt-3 border-t pt-3">
                  <RowActions center={center} onEdit={() => setEditing(center)} onExtend={() => setExtending(center)} />
                </div>
              </li>
            ))}
          </ul>

          <nav className="mt-4 flex items-center justify-between text-sm text-muted-foreground" aria-label="Pages">
            <span>
              {total} {total === 1 ? "center" : "centers"}
            </span>
            {pages > 1 && (
              <span className="flex items-center gap-2">
                {page > 1 && <Link to={pageLink(page - 1)}>Previous</Link>}
                <span>
                  Page {page} of {pages}
                </span>
                {page < pages && <Link to={pageLink(page + 1)}>Next</Link>}
              </span>
            )}
          </nav>
        </>
      )}

      {editing && <EditCenterDialog key={editing._id} center={editing} onClose={() => setEditing(null)} />}
      {extending && (
        <ExtendDialog key={extending._id} center={extending} now={now} onClose={() => setExtending(null)} />
      )}
    </div>
  );
}

/** Trials are told apart from paid centers at a glance; a refunded center says so. */
function StatusBadge({ center, now }: { center: CenterJson; now: number }) {
  if (center.payment?.refund?.status === "processed") return <Badge tone="destructive">Refunded</Badge>;
  if (center.trialEndsAt)
    return new Date(center.trialEndsAt).getTime() > now && center.status === "active" ? (
      <Badge className="bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200">Trial</Badge>
    ) : (
      <Badge tone="muted">Trial ended</Badge>
    );
  const status = center.status;
  return <Badge tone={status === "active" ? "success" : "muted"}>{status === "active" ? "Active" : "Inactive"}</Badge>;
}

function PaymentNote({ center, now }: { center: CenterJson; now: number }) {
  const p = center.payment;
  if (center.trialEndsAt && !p) {
    const left = daysLeft(center.trialEndsAt, now) ?? 0;
    return (
      <p className="text-xs text-amber-700 dark:text-amber-300">
        Free trial{left > 0 ? ` · ${left} ${left === 1 ? "day" : "days"} left` : " · ended unpaid"}
      </p>
    );
  }
  if (!p) return null;
  if (p.refund)
    return (
      <p className="text-xs text-destructive">
        {formatRupees(p.refund.amount / 100)} refunded
        {p.refund.processedAt ? ` ${formatDate(p.refund.processedAt)}` : ""}
      </p>
    );
  return (
    <p className="text-xs text-muted-foreground">
      Paid {formatRupees(p.amount / 100)} {formatDate(p.paidAt)}
      {p.refundable && ` · refundable until ${formatDate(p.refundableUntil)}`}
    </p>
  );
}

function Expiry({ center, now }: { center: CenterJson; now: number }) {
  if (!center.expireDate) return <span className="text-muted-foreground">No expiry</span>;
  const label = expiryLabel(center.expireDate, now);
  return (
    <span className="grid">
      <span>{formatDate(center.expireDate)}</span>
      <span className={cn("text-xs", label === "Expired" ? "font-medium text-destructive" : "text-muted-foreground")}>
        {label}
      </span>
    </span>
  );
}

function useCenterToast(
  fetcher: ReturnType<typeof useFetcher<CenterActionResult>>,
  onSuccess?: (center: CenterJson) => void,
) {
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (!result) return;
    if (!result.ok) {
      if (Object.keys(result.fieldErrors).length === 0)
        toast.error("Error", { description: result.error, duration: 4000 });
      return;
    }
    const c = result.center;
    if (result.intent === "edit")
      toast.success("Center updated", { description: `${c.name}'s details were saved.`, duration: 5000 });
    if (result.intent === "extend")
      toast.success("Expiry extended", {
        description: `${c.name} now runs until ${formatDate(c.expireDate!)}.`,
        duration: 5000,
      });
    if (result.intent === "refund")
      toast.success("Refund issued", {
        description: `${c.name}'s payment is on its way back; the center has ended and its owner has been told.`,
        duration: 5000,
      });
    if (result.intent === "status")
      toast.success(c.status === "active" ? "Center activated" : "Center deactivated", {
        description:
          c.status === "active"
            ? `${c.name}'s website is live again.`
            : `${c.name}'s website shows “temporarily unavailable” until you activate it.`,
        duration: 5000,
      });
    onSuccess?.(c);
    // onSuccess changes identity each render; the result is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [result]);
}

function RowActions({ center, onEdit, onExtend }: { center: CenterJson; onEdit: () => void; onExtend: () => void }) {
  const status = useFetcher<CenterActionResult>();
  useCenterToast(status);
  const [confirmOff, setConfirmOff] = useState(false);
  const [confirmRefund, setConfirmRefund] = useState(false);
  const refundable = center.payment?.refundable ? center.payment : null;
  const url = goUrl(center);
  const busy = status.state !== "idle";
  const setStatus = (next: "active" | "inactive") =>
    void status.submit({ intent: "status", id: center._id, status: next }, { method: "post" });
  const item =
    "flex cursor-default items-center gap-2 rounded-md px-2 py-1.5 text-sm outline-none data-[highlighted]:bg-muted data-[disabled]:opacity-50";
  return (
    <div className="flex items-center justify-end gap-1.5" role="group" aria-label={`Actions for ${center.name}`}>
      {url ? (
        <a href={url} target="_blank" rel="noopener noreferrer" className={buttonClasses("default", "sm")}>
          Go <ExternalLink className="size-3.5" aria-hidden />
        </a>
      ) : (
        <Button size="sm" disabled title="This center has no website or domain">
          Go
        </Button>
      )}
      <DropdownMenu.Root modal={false}>
        <DropdownMenu.Trigger asChild>
          <Button size="sm" variant="outline" aria-label={`More actions for ${center.name}`} disabled={busy}>
            <MoreHorizontal className="size-4" aria-hidden />
          </Button>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={4}
            className="z-50 min-w-44 rounded-lg border bg-card p-1 shadow-lg"
          >
            <DropdownMenu.Item className={item} onSelect={onEdit}>
              <Pencil className="size-4" aria-hidden /> Edit
            </DropdownMenu.Item>
            <DropdownMenu.Item className={item} onSelect={onExtend}>
              <CalendarPlus className="size-4" aria-hidden /> Extend expiry
            </DropdownMenu.Item>
            {refundable && (
              <DropdownMenu.Item className={cn(item, "text-destructive")} onSelect={() => setConfirmRefund(true)}>
                <RotateCcw className="size-4" aria-hidden /> Refund {formatRupees(refundable.amount / 100)}
              </DropdownMenu.Item>
            )}
            <DropdownMenu.Separator className="my-1 h-px bg-border" />
            {center.status === "active" ? (
              <DropdownMenu.Item className={cn(item, "text-destructive")} onSelect={() => setConfirmOff(true)}>
                <Power className="size-4" aria-hidden /> Deactivate
              </DropdownMenu.Item>
            ) : (
              <DropdownMenu.Item className={cn(item, "text-success")} onSelect={() => setStatus("active")}>
                <Power className="size-4" aria-hidden /> Activate
              </DropdownMenu.Item>
            )}
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {refundable && (
        <AlertDialog.Root open={confirmRefund} onOpenChange={setConfirmRefund}>
          <AlertDialog.Portal>
            <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/50" />
            <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 grid w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border bg-card p-6 shadow-xl">
              <AlertDialog.Title className="text-lg font-semibold">
                Refund {formatRupees(refundable.amount / 100)} to {center.name}?
              </AlertDialog.Title>
              <AlertDialog.Description className="text-sm text-muted-foreground">
                The 30-day money-back guarantee: the payment of {formatDate(refundable.paidAt)} goes back through the
                payment gateway, the center ends at once and its owner is told. This cannot be undone.
              </AlertDialog.Description>
              <div className="flex justify-end gap-2">
                <AlertDialog.Cancel className={buttonClasses("outline")}>Cancel</AlertDialog.Cancel>
                <AlertDialog.Action
                  className={buttonClasses("destructive")}
                  onClick={() =>
                    void status.submit(
                      { intent: "refund", id: center._id, purchaseId: refundable.purchaseId },
                      { method: "post" },
                    )
                  }
                >
                  Refund
                </AlertDialog.Action>
              </div>
            </AlertDialog.Content>
          </AlertDialog.Portal>
        </AlertDialog.Root>
      )}
      <AlertDialog.Root open={confirmOff} onOpenChange={setConfirmOff}>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/50" />
          <AlertDialog.Content className="fixed left-1/2 top-1/2 z-50 grid w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 gap-4 rounded-xl border bg-card p-6 shadow-xl">
            <AlertDialog.Title className="text-lg font-semibold">Deactivate {center.name}?</AlertDialog.Title>
            <AlertDialog.Description className="text-sm text-muted-foreground">
              Its website will show “temporarily unavailable” until you activate it again. Nothing is deleted.
            </AlertDialog.Description>
            <div className="flex justify-end gap-2">
              <AlertDialog.Cancel className={buttonClasses("outline")}>Cancel</AlertDialog.Cancel>
              <AlertDialog.Action className={buttonClasses("destructive")} onClick={() => setStatus("inactive")}>
                Deactivate
              </AlertDialog.Action>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
    </div>
  );
}

function EditCenterDialog({ center, onClose }: { center: CenterJson; onClose: () => void }) {
  const fetcher = useFetcher<CenterActionResult>();
  useCenterToast(fetcher, onClose);
  const failed = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data : null;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={`Edit ${center.name}`} description="Changes are live on the center's domain at once.">
        <CenterForm
          as={fetcher.Form}
          hidden={{ intent: "edit", id: center._id }}
          defaults={{
            name: center.name,
            domain: center.domain ?? "",
            website: center.website ?? "",
            superAdminPath: center.superAdminPath,
          }}
          serverErrors={failed?.fieldErrors}
          submitting={fetcher.state !== "idle"}
          submitLabel="Save changes"
          submittingLabel="Saving..."
          footer={
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
          }
        />
      </DialogContent>
    </Dialog>
  );
}

const EXTEND_OPTIONS = [
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 180, label: "180 days" },
  { days: 365, label: "1 year (365 days)" },
];

function ExtendDialog({ center, now, onClose }: { center: CenterJson; now: number; onClose: () => void }) {
  const fetcher = useFetcher<CenterActionResult>();
  useCenterToast(fetcher, onClose);
  const [days, setDays] = useState(30);
  const current = center.expireDate ? new Date(center.expireDate).getTime() : null;
  const from = current && current > now ? current : now;
  const until = new Date(from + days * 86_400_000);
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        title={`Extend ${center.name}`}
        description={
          center.expireDate
            ? `Currently ${current! > now ? "runs until" : "expired on"} ${formatDate(center.expireDate)}.`
            : "This center has no expiry date yet."
        }
      >
        <fetcher.Form method="post" className="grid gap-4">
          <input type="hidden" name="intent" value="extend" />
          <input type="hidden" name="id" value={center._id} />
          <div className="grid gap-1.5">
            <Label htmlFor="extend-days">Extend by</Label>
            <Select id="extend-days" name="days" value={days} onChange={(e) => setDays(Number(e.target.value))}>
              {EXTEND_OPTIONS.map((o) => (
                <option key={o.days} value={o.days}>
                  {o.label}
                </option>
              ))}
            </Select>
          </div>
          <p className="text-sm">
            New expiry: <strong>{formatDate(until)}</strong>
          </p>
          <div className="flex gap-2">
            <Button type="submit" disabled={fetcher.state !== "idle"}>
              {fetcher.state !== "idle" ? "Extending..." : "Extend"}
            </Button>
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
          </div>
        </fetcher.Form>
      </DialogContent>
    </Dialog>
  );
}
