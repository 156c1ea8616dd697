import { useEffect, useRef, useState } from "react";
import { Form, Link, useFetcher, useLocation, useSubmit } from "react-router";
import { toast } from "~/lib/toast";
import {
  ArrowDown,
  ArrowUp,
  ArrowUpDown,
  ChevronLeft,
  ChevronRight,
  Eye,
  FileStack,
  Pencil,
  Plus,
  Search,
  Trash2,
} from "lucide-react";
import type { Route } from "./+types/contents";
import { creatorContext, toContentJson, tryAction } from "~/lib/creator.server";
import type { ContentJson } from "#common/content-types.ts";
import { creatorPaths } from "~/lib/creator-paths";
import { formatPrice } from "#common/format.ts";
import { CONTENT_TYPE_LABELS, DELETE_CONFIRM, classTimeInput, type SortKey } from "#common/validation/content.ts";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { Confirm } from "~/components/ui/confirm";
import { Dialog, DialogContent } from "~/components/ui/dialog";
import { EmptyState } from "~/components/ui/empty-state";
import { Field } from "~/components/ui/field";
import { Input, Select, Textarea } from "~/components/ui/input";
import { PageHeader } from "~/components/ui/page-header";
import { Table, TBody, THead, Td, Th, Tr } from "~/components/ui/table";
import { cn } from "~/lib/cn";
import { NO_TEAMS_HINT } from "#common/validation/team.ts";

export const meta: Route.MetaFunction = () => [{ title: "My Contents | Creator Studio" }];

const PAGE_SIZE = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { services, creator } = await creatorContext(context, request);
  const params = Object.fromEntries(new URL(request.url).searchParams);
  const [list, businesses] = await Promise.all([
    services.content.listMine(creator, { ...params, limit: String(PAGE_SIZE) }),
    services.team.assignableBusinesses(creator),
  ]);
  // At the institute chosen in the header, content stays with it (its author may take theirs back).
  const assignable = creator.desk ? businesses.filter((b) => b._id === creator.desk) : businesses;
  return {
    contents: list.items.map((row) => toContentJson(row)),
    total: list.total,
    query: list.query,
    businesses: assignable,
  };
}

type Intent = "assign" | "status" | "edit" | "delete";

/** One action for the row's forms; every change goes through the content service's ownership checks. */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, creator } = await creatorContext(context, request);
  const form = await request.formData();
  const intent = String(form.get("intent")) as Intent;
  const id = String(form.get("id") ?? "");
  return tryAction(async () => {
    switch (intent) {
      case "assign":
        await services.content.assign(creator, id, { businessId: String(form.get("businessId") ?? "") });
        return { intent };
      case "status":
        await services.content.update(creator, id, { isActive: form.get("isActive") === "true" });
        return { intent };
      case "edit": {
        const body: Record<string, string> = {};
        for (const key of ["title", "description", "price", "liveLink", "liveStartsAt"]) {
          const value = form.get(key);
          if (typeof value === "string") body[key] = value;
        }
        await services.content.update(creator, id, body);
        return { intent };
      }
      case "delete": {
        const { archived } = await services.content.remove(creator, id);
        return { intent, archived };
      }
      default:
        return { intent: "none" as const };
    }
  });
}

type Business = { _id: string; name: string };

export default function ContentsPage({ loaderData }: Route.ComponentProps) {
  const { contents, total, query, businesses } = loaderData;
  const location = useLocation();
  // Deleting lives here, not in the row: the row is gone by the time the answer is shown.
  const remover = useFetcher<RowResult>();
  useResultToast(remover.state === "idle" ? remover.data : undefined);
  const removing = remover.state !== "idle" ? String(remover.formData?.get("id") ?? "") : null;
  const paths = creatorPaths(location.pathname);
  const from = total === 0 ? 0 : (query.page - 1) * PAGE_SIZE + 1;
  const to = Math.min(total, query.page * PAGE_SIZE);
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));

  const link = (changes: Record<string, string | number | undefined>) => {
    const params = new URLSearchParams();
    const merged = { q: query.q, sort: query.sort, dir: query.dir, page: query.page, ...changes };
    for (const [k, v] of Object.entries(merged)) {
      if (
        v === undefined ||
        v === "" ||
        (k === "page" && Number(v) === 1) ||
        (k === "sort" && v === "createdAt" && merged.dir === "desc")
      )
        continue;
      if (k === "dir" && merged.sort === "createdAt" && v === "desc") continue;
      params.set(k, String(v));
    }
    const search = params.toString();
    return search ? `?${search}` : location.pathname;
  };

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="My Contents"
        description="Everything you have published: assign it to a business, switch it on or off, edit or delete it."
        actions={
          <ButtonLink to={paths.upload}>
            <Plus className="size-4" aria-hidden /> New Content
          </ButtonLink>
        }
      />
      <SearchBar q={query.q} sort={query.sort} dir={query.dir} />
      {businesses.length === 0 && contents.length > 0 && (
        <p className="mb-4 text-sm text-muted-foreground">{NO_TEAMS_HINT}</p>
      )}

      {contents.length === 0 ? (
        <EmptyState
          icon={<FileStack />}
          title={query.q ? `No contents match “${query.q}”.` : "You have not uploaded anything yet."}
        >
          {!query.q && <ButtonLink to={paths.upload}>Upload your first content</ButtonLink>}
        </EmptyState>
      ) : (
        <>
          {/* Under 768px each row becomes a card: the same cells, labelled, stacked. */}
          <Table className="max-md:block">
            <THead className="bg-muted/60 text-left max-md:hidden">
              <tr>
                <SortHeader label="Title" column="title" query={query} link={link} />
                <SortHeader label="Type" column="type" query={query} link={link} />
                <SortHeader label="Price" column="price" query={query} link={link} />
                <Th>Business</Th>
                <SortHeader label="Status" column="status" query={query} link={link} />
                <Th className="text-right">Actions</Th>
              </tr>
            </THead>
            <TBody className="divide-y max-md:block">
              {contents.map((content) => (
                <ContentRow
                  key={content._id}
                  content={content}
                  businesses={businesses}
                  detailPath={paths.content(content._id)}
                  deleting={removing === content._id}
                  onDelete={() => remover.submit({ intent: "delete", id: content._id }, { method: "post" })}
                />
              ))}
            </TBody>
          </Table>
          <nav
            aria-label="Pages"
            className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-muted-foreground"
          >
            <span>
              Showing {from}–{to} of {total}
            </span>
            <div className="flex items-center gap-2">
              <ButtonLink
                to={link({ page: query.page - 1 })}
                variant="outline"
                size="sm"
                aria-disabled={query.page <= 1}
                tabIndex={query.page <= 1 ? -1 : undefined}
              >
                <ChevronLeft className="size-4" aria-hidden /> Previous
              </ButtonLink>
              <span>
                Page {query.page} of {pages}
              </span>
              <ButtonLink
                to={link({ page: query.page + 1 })}
                variant="outline"
                size="sm"
                aria-disabled={query.page >= pages}
                tabIndex={query.page >= pages ? -1 : undefined}
              >
                Next <ChevronRight className="size-4" aria-hidden />
              </ButtonLink>
            </div>
          </nav>
        </>
      )}
    </div>
  );
}

function SearchBar({ q, sort, dir }: { q: string; sort: string; dir: string }) {
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <Form
      role="search"
      className="mb-4 flex gap-2"
      onChange={(e) => {
        const form = e.currentTarget;
        clearTimeout(timer.current);
        // Searching as you type, without a request per keystroke.
        timer.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), 300);
      }}
    >
      <input type="hidden" name="sort" value={sort} />
      <input type="hidden" name="dir" value={dir} />
      <div className="relative max-w-sm flex-1">
        <Search
          className="pointer-events-none absolute left-3 top-1/2 size-4 -translate-y-1/2 text-muted-foreground"
          aria-hidden
        />
        <Input
          type="search"
          name="q"
          defaultValue={q}
          placeholder="Search by title"
          aria-label="Search by title"
          className="pl-9"
          maxLength={100}
        />
      </div>
      <Button type="submit" variant="outline">
        Search
      </Button>
    </Form>
  );
}

function SortHeader({
  label,
  column,
  query,
  link,
}: {
  label: string;
  column: SortKey;
  query: { sort: SortKey; dir: "asc" | "desc" };
  link: (changes: Record<string, string | number | undefined>) => string;
}) {
  const active = query.sort === column;
  const next = active && query.dir === "asc" ? "desc" : "asc";
  const Icon = active ? (query.dir === "asc" ? ArrowUp : ArrowDown) : ArrowUpDown;
  return (
    <Th aria-sort={active ? (query.dir === "asc" ? "ascending" : "descending") : undefined}>
      <Link
        to={link({ sort: column, dir: next, page: 1 })}
        preventScrollReset
        className="inline-flex items-center gap-1 hover:text-foreground"
      >
        {label}
        <Icon className={cn("size-3.5", !active && "opacity-40")} aria-hidden />
      </Link>
    </Th>
  );
}

/** A cell that, in the stacked mobile layout, shows its column name on the left. */
const CELL =
  "max-md:flex max-md:items-center max-md:justify-between max-md:gap-3 max-md:p-0 max-md:before:text-xs max-md:before:text-muted-foreground max-md:before:content-[attr(data-label)]";

type RowResult = { ok: true; intent: Intent | "none"; archived?: boolean } | { ok: false; error: string };

const SUCCESS: Record<Intent, string> = {
  assign: "Business updated",
  status: "Status updated",
  edit: "Content updated",
  delete: "Content deleted",
};

/** Toasts a row action's outcome once, when its answer arrives. */
function useResultToast(result: RowResult | undefined, quietErrors = false) {
  useEffect(() => {
    if (!result) return;
    if (!result.ok) {
      if (!quietErrors) toast.error("Update failed", { description: result.error, duration: 4000 });
      return;
    }
    if (result.intent === "none") return;
    if (result.intent === "delete" && result.archived) {
      toast.success("Content archived", { description: "Students who bought it keep access.", duration: 5000 });
    } else toast.success(SUCCESS[result.intent], { duration: 5000 });
  }, [result, quietErrors]);
}

function ContentRow({
  content,
  businesses,
  detailPath,
  deleting,
  onDelete,
}: {
  content: ContentJson;
  businesses: Business[];
  detailPath: string;
  deleting: boolean;
  onDelete: () => void;
}) {
  const fetcher = useFetcher<RowResult>();
  const editFetcher = useFetcher<RowResult>();
  // The dialog is open from "Edit" until closed or until a save made after opening it succeeds.
  const [openedWith, setOpenedWith] = useState<RowResult | undefined | null>(null);
  const saved = editFetcher.state === "idle" && editFetcher.data !== openedWith && editFetcher.data?.ok === true;
  const editing = openedWith !== null && !saved;
  const pending = fetcher.formData;
  const pendingIntent = pending?.get("intent");

  useResultToast(fetcher.state === "idle" ? fetcher.data : undefined);
  // The edit dialog shows its own errors beside the fields.
  useResultToast(editFetcher.state === "idle" ? editFetcher.data : undefined, true);

  // Optimistic: the row shows what was just chosen while it saves.
  const businessId = pendingIntent === "assign" ? String(pending?.get("businessId") ?? "") : (content.businessId ?? "");
  const isActive = pendingIntent === "status" ? pending?.get("isActive") === "true" : content.isActive;
  const options =
    content.businessId && !businesses.some((b) => b._id === content.businessId)
      ? [...businesses, { _id: content.businessId, name: `${content.businessName ?? "Business"} (inactive)` }]
      : businesses;

  return (
    <Tr className={cn("max-md:grid max-md:gap-2 max-md:px-4 max-md:py-3", deleting && "opacity-50")}>
      <Td className="max-w-72 max-md:max-w-none max-md:p-0">
        <Link to={detailPath} className="font-medium hover:text-primary hover:underline">
          <span className="line-clamp-2">{content.title}</span>
        </Link>
      </Td>
      <Td data-label="Type" className={CELL}>
        <Badge tone="muted" className="whitespace-nowrap">
          {CONTENT_TYPE_LABELS[content.type]}
        </Badge>
      </Td>
      <Td data-label="Price" className={cn(CELL, "whitespace-nowrap tabular-nums")}>
        {formatPrice(content.price)}
      </Td>
      <Td data-label="Business" className={CELL}>
        <fetcher.Form method="post" className="min-w-44">
          <input type="hidden" name="intent" value="assign" />
          <input type="hidden" name="id" value={content._id} />
          <Select
            name="businessId"
            value={businessId}
            aria-label={`Business for ${content.title}`}
            className="h-9"
            onChange={(e) => fetcher.submit(e.currentTarget.form)}
          >
            <option value="">Unassigned</option>
            {options.map((b) => (
              <option key={b._id} value={b._id}>
                {b.name}
              </option>
            ))}
          </Select>
          <noscript>
            <Button type="submit" size="sm" variant="outline" className="mt-1">
              Save
            </Button>
          </noscript>
        </fetcher.Form>
      </Td>
      <Td data-label="Status" className={CELL}>
        <fetcher.Form method="post">
          <input type="hidden" name="intent" value="status" />
          <input type="hidden" name="id" value={content._id} />
          <input type="hidden" name="isActive" value={String(!isActive)} />
          <button
            type="submit"
            aria-label={`${isActive ? "Active" : "Inactive"}: switch ${content.title} ${isActive ? "off" : "on"}`}
            title={isActive ? "Click to make it inactive" : "Click to make it active"}
            className={cn(
              "inline-flex items-center gap-1.5 rounded-full px-2.5 py-0.5 text-xs font-medium transition-colors",
              isActive
                ? "bg-success/15 text-success-ink hover:bg-success/25"
                : "bg-muted text-muted-foreground hover:bg-muted/70",
            )}
          >
            <span
              className={cn("size-1.5 rounded-full", isActive ? "bg-success" : "bg-muted-foreground")}
              aria-hidden
            />
            {isActive ? "Active" : "Inactive"}
          </button>
        </fetcher.Form>
      </Td>
      <Td className="max-md:p-0">
        <div className="flex items-center justify-end gap-1 max-md:-ml-3 max-md:justify-start">
          <ButtonLink to={detailPath} variant="ghost" size="sm" aria-label={`View ${content.title}`}>
            <Eye className="size-4" aria-hidden /> View
          </ButtonLink>
          <Dialog open={editing} onOpenChange={(open) => setOpenedWith(open ? editFetcher.data : null)}>
            <Button
              variant="ghost"
              size="sm"
              onClick={() => setOpenedWith(editFetcher.data)}
              aria-label={`Edit ${content.title}`}
            >
              <Pencil className="size-4" aria-hidden /> Edit
            </Button>
            <DialogContent title="Edit content" description={content.title}>
              <EditForm content={content} fetcher={editFetcher} onCancel={() => setOpenedWith(null)} />
            </DialogContent>
          </Dialog>
          <Confirm
            title={DELETE_CONFIRM}
            description={`“${content.title}” leaves your list and the catalog. If students bought it, it is archived and they keep access.`}
            onConfirm={onDelete}
            trigger={
              <Button
                variant="ghost"
                size="sm"
                className="text-destructive hover:bg-destructive/10"
                aria-label={`Delete ${content.title}`}
                disabled={deleting}
              >
                <Trash2 className="size-4" aria-hidden /> Delete
              </Button>
            }
          />
        </div>
      </Td>
    </Tr>
  );
}

function EditForm({
  content,
  fetcher,
  onCancel,
}: {
  content: ContentJson;
  fetcher: ReturnType<typeof useFetcher<RowResult>>;
  onCancel: () => void;
}) {
  const saving = fetcher.state !== "idle" && fetcher.formData?.get("intent") === "edit";
  const error = fetcher.state === "idle" && fetcher.data && !fetcher.data.ok ? fetcher.data.error : null;
  return (
    <fetcher.Form method="post" className="grid gap-4">
      <input type="hidden" name="intent" value="edit" />
      <input type="hidden" name="id" value={content._id} />
      <Field label="Title">
        <Input name="title" defaultValue={content.title} required maxLength={200} />
      </Field>
      <Field label="Description">
        <Textarea name="description" defaultValue={content.description} maxLength={5000} rows={4} />
      </Field>
      <Field label="Price (₹)">
        <Input name="price" type="number" min={0} step="0.01" defaultValue={content.price} required />
      </Field>
      {content.type === "live" && (
        <>
          <Field label="Live Link">
            <Input name="liveLink" type="url" defaultValue={content.liveLink ?? ""} required placeholder="https://" />
          </Field>
          <Field
            label="Class starts at (optional)"
            hint="India time. Enrolled students see the link from 15 minutes before."
          >
            <Input name="liveStartsAt" type="datetime-local" defaultValue={classTimeInput(content.liveStartsAt)} />
          </Field>
        </>
      )}
      {error && (
        <p role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={saving}>
          {saving ? "Saving..." : "Save"}
        </Button>
      </div>
    </fetcher.Form>
  );
}
