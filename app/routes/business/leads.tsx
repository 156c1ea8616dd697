import { useEffect } from "react";
import { Link, useFetcher, useSearchParams } from "react-router";
import { toast } from "~/lib/toast";
import { Inbox } from "lucide-react";
import type { Route } from "./+types/leads";
import { loadBusinessCenter } from "~/lib/business.server";
import { failure } from "~/lib/actions.server";
import { ENQUIRY_STATUSES } from "#common/validation/enquiry.ts";
import { PageHeader } from "~/components/ui/page-header";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { Select } from "~/components/ui/input";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { NoSubscription } from "~/components/business/no-subscription";
import { formatTime } from "#common/time.ts";

export const meta: Route.MetaFunction = () => [{ title: "Leads | Business" }];

const PER_PAGE = 25;
type Status = (typeof ENQUIRY_STATUSES)[number];
const isStatus = (s: unknown): s is Status =>
  typeof s === "string" && (ENQUIRY_STATUSES as readonly string[]).includes(s);
const LABELS: Record<Status, string> = { new: "New", contacted: "Contacted", enrolled: "Enrolled" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const { center, services } = await loadBusinessCenter(context, request);
  if (!center) return { center: null, leads: [], total: 0, page: 1, counts: null };
  const url = new URL(request.url);
  const status = isStatus(url.searchParams.get("status")) ? (url.searchParams.get("status") as Status) : undefined;
  const page = Math.max(1, Number(url.searchParams.get("page")) || 1);
  const [{ rows, total }, counts] = await Promise.all([
    services.enquiries.list(center.id, { status, limit: PER_PAGE, offset: (page - 1) * PER_PAGE }),
    services.enquiries.countByStatus(center.id),
  ]);
  return {
    center: { instituteName: center.instituteName },
    leads: rows.map((r) => ({
      id: r.id,
      name: r.name,
      phone: r.phone,
      email: r.email,
      program: r.program,
      message: r.message,
      kind: r.kind,
      status: r.status,
      createdAt: r.createdAt.toISOString(),
    })),
    total,
    page,
    counts,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { center, services } = await loadBusinessCenter(context, request);
  if (!center) return failure("No active subscription found.", 404);
  const form = await request.formData();
  const status = form.get("status");
  if (!isStatus(status)) return failure("Status must be new, contacted or enrolled");
  const row = await services.enquiries.setStatus(center.id, String(form.get("id") ?? ""), status);
  if (!row) return failure("Enquiry not found", 404);
  return { ok: true as const, status };
}

export default function Leads({ loaderData }: Route.ComponentProps) {
  const { center, leads, total, page, counts } = loaderData;
  const [params] = useSearchParams();
  const current = params.get("status");
  if (!center) {
    return <NoSubscription title="Leads" />;
  }
  const pages = Math.max(1, Math.ceil(total / PER_PAGE));
  const link = (next: Record<string, string | null>) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) {
      if (v === null) p.delete(k);
      else p.set(k, v);
    }
    const q = p.toString();
    return q ? `?${q}` : ".";
  };
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Leads" description={`Enquiries left on ${center.instituteName}'s website.`} />
      <nav aria-label="Filter by status" className="mb-4 flex flex-wrap gap-2">
        <FilterLink
          to={link({ status: null, page: null })}
          active={!current}
          label={`All (${counts ? counts.new + counts.contacted + counts.enrolled : 0})`}
        />
        {ENQUIRY_STATUSES.map((s) => (
          <FilterLink
            key={s}
            to={link({ status: s, page: null })}
            active={current === s}
            label={`${LABELS[s]} (${counts?.[s] ?? 0})`}
          />
        ))}
      </nav>
      {leads.length === 0 ? (
        <EmptyState
          icon={<Inbox />}
          title="No enquiries yet. They appear here as soon as someone writes from your website."
        />
      ) : (
        <Table>
          <THead>
            <tr>
              <Th>Received</Th>
              <Th>Name</Th>
              <Th>Contact</Th>
              <Th>Program</Th>
              <Th>Message</Th>
              <Th>Status</Th>
            </tr>
          </THead>
          <TBody>
            {leads.map((lead) => (
              <Tr key={lead.id}>
                <Td className="whitespace-nowrap text-muted-foreground">{formatTime(lead.createdAt)}</Td>
                <Td>
                  <div className="font-medium">{lead.name}</div>
                  <Badge tone="muted">{lead.kind}</Badge>
                </Td>
                <Td>
                  <a href={`tel:${lead.phone}`} className="block hover:underline">
                    {lead.phone}
                  </a>
                  {lead.email && (
                    <a href={`mailto:${lead.email}`} className="block text-muted-foreground hover:underline">
                      {lead.email}
                    </a>
                  )}
                </Td>
                <Td>{lead.program ?? "—"}</Td>
                <Td className="max-w-72 text-muted-foreground">{lead.message ?? "—"}</Td>
                <Td>
                  <StatusSelect id={lead.id} status={lead.status} />
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
      {pages > 1 && (
        <div className="mt-4 flex items-center justify-between text-sm">
          <span className="text-muted-foreground">
            Page {page} of {pages}
          </span>
          <div className="flex gap-2">
            <ButtonLink to={link({ page: String(page - 1) })} variant="outline" size="sm" aria-disabled={page <= 1}>
              Previous
            </ButtonLink>
            <ButtonLink to={link({ page: String(page + 1) })} variant="outline" size="sm" aria-disabled={page >= pages}>
              Next
            </ButtonLink>
          </div>
        </div>
      )}
    </div>
  );
}

function FilterLink({ to, active, label }: { to: string; active: boolean; label: string }) {
  return (
    <Link
      to={to}
      aria-current={active ? "page" : undefined}
      className={`rounded-full border px-3 py-1 text-sm ${active ? "border-primary bg-primary/10 font-medium text-primary" : "hover:bg-muted"}`}
    >
      {label}
    </Link>
  );
}

function StatusSelect({ id, status }: { id: string; status: Status }) {
  const fetcher = useFetcher<typeof action>();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (result && !result.ok) toast.error("Could not update the lead", { description: result.error, duration: 4000 });
  }, [result]);
  const shown = (fetcher.formData?.get("status") as Status | null) ?? status;
  return (
    <fetcher.Form method="post" className="flex items-center gap-2">
      <input type="hidden" name="id" value={id} />
      <Select
        name="status"
        aria-label="Lead status"
        value={shown}
        className="h-9 w-36"
        onChange={(event) => fetcher.submit(event.currentTarget.form)}
      >
        {ENQUIRY_STATUSES.map((s) => (
          <option key={s} value={s}>
            {LABELS[s]}
          </option>
        ))}
      </Select>
      <noscript>
        <Button type="submit" size="sm" variant="outline">
          Save
        </Button>
      </noscript>
    </fetcher.Form>
  );
}
