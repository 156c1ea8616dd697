import { useEffect, useRef, useState } from "react";
import { Form, Link, useActionData, useNavigation, useSubmit } from "react-router";
import { UsersRound } from "lucide-react";
import type { Route } from "./+types/batches";
import { loadBusinessCenter, notAllowed } from "~/lib/business.server";
import { failure, tryService } from "~/lib/actions.server";
import { toast } from "~/lib/toast";
import { PageHeader } from "~/components/ui/page-header";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input, Select, Textarea } from "~/components/ui/input";
import { ConfirmedSubmit } from "~/components/ui/confirm";
import { EmptyState } from "~/components/ui/empty-state";
import { NoSubscription } from "~/components/business/no-subscription";
import { formatDate } from "#common/format.ts";
import { CONTENT_TYPE_LABELS } from "#common/validation/content.ts";
import type { BatchJson, BatchPersonJson, BatchStudentJson } from "#common/validation/batches.ts";

export const meta: Route.MetaFunction = () => [{ title: "Batches | Business" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { center, services } = await loadBusinessCenter(context, request);
  if (!center)
    return { center: null, batches: [] as BatchJson[], open: null, teachers: [] as BatchPersonJson[], feePlans: [] };
  const [batches, people, plans] = await Promise.all([
    services.batches.list(center.id),
    services.batches.people(center.id),
    services.feePlans.list(center.id),
  ]);
  const feePlans = plans.map((p) => ({ _id: p._id, name: p.name }));
  const chosen = new URL(request.url).searchParams.get("batch");
  const open =
    chosen && batches.some((b) => b._id === chosen)
      ? await openBatch(services, center.id, chosen, people.students)
      : null;
  return { center: { instituteName: center.instituteName }, batches, open, teachers: people.teachers, feePlans };
}

type Services = Awaited<ReturnType<typeof loadBusinessCenter>>["services"];

/** The open batch, and what the page offers to put into it: the institute's students, open leads and contents. */
async function openBatch(services: Services, centerId: string, batchId: string, students: BatchPersonJson[]) {
  const [detail, leads, items] = await Promise.all([
    services.batches.detail(centerId, batchId),
    services.enquiries.list(centerId, { limit: 200 }),
    services.team.siteItems(centerId),
  ]);
  const inBatch = new Set([...detail.students, ...detail.waitingList].map((s) => s.studentId));
  const added = new Set(detail.contents.map((c) => c._id));
  return {
    ...detail,
    candidates: students.filter((s) => !inBatch.has(s._id)),
    leads: leads.rows
      .filter((l) => l.status !== "enrolled")
      .map((l) => ({ _id: l.id, name: l.name, phone: l.phone, email: l.email, status: l.status })),
    contentChoices: items.filter((i) => !added.has(i._id)).map((i) => ({ _id: i._id, title: i.title, type: i.type })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { center, services, may, viewer } = await loadBusinessCenter(context, request);
  if (!center) return failure("No active subscription found.", 404);
  if (!may("batches.manage")) return failure(notAllowed("batches.manage"), 403);
  const form = await request.formData();
  const field = (name: string) => String(form.get(name) ?? "").trim();
  const teacherIds = form.getAll("teacherIds").map(String);
  const intent = field("intent");
  const batchId = field("batchId");
  const admitted = ({ admitted, waitlisted }: { admitted: BatchStudentJson[]; waitlisted: BatchStudentJson[] }) =>
    [
      ...admitted.map((s) => `${s.name} is admitted.`),
      ...waitlisted.map((s) => `${s.name} is on the waiting list at #${s.position}.`),
    ].join(" ") || "Already in the batch.";
  if (intent === "create") {
    const capacity = field("capacity");
    const done = await tryService(() =>
      services.batches.create(viewer, center.id, {
        name: field("name"),
        course: field("course"),
        startsOn: field("startsOn"),
        endsOn: field("endsOn") || undefined,
        capacity: capacity ? Number(capacity) : undefined,
        medium: field("medium"),
        centre: field("centre"),
        teacherIds,
        feePlanId: field("feePlanId") || undefined,
      }),
    );
    if (!done.ok) return done.response;
    return { ok: true as const, intent, message: `${done.value.name} is made.` };
  }
  if (intent === "fee-plan") {
    const done = await tryService(() =>
      services.batches.setFeePlan(center.id, batchId, { feePlanId: field("feePlanId") || null }),
    );
    if (!done.ok) return done.response;
    const plan = done.value.feePlan;
    return {
      ok: true as const,
      intent,
      message: plan ? `Students admitted from now on are assigned ${plan.name}.` : "The batch has no fee plan now.",
    };
  }
  if (intent === "teachers") {
    const done = await tryService(() => services.batches.setTeachers(center.id, batchId, { teacherIds }));
    if (!done.ok) return done.response;
    const names = done.value.teachers.map((t) => t.name).join(", ");
    return { ok: true as const, intent, message: names ? `Teachers: ${names}.` : "The batch has no teachers now." };
  }
  if (intent === "admit-student") {
    const done = await tryService(() =>
      services.batches.admit(viewer, center.id, batchId, { studentIds: [field("studentId")] }),
    );
    if (!done.ok) return done.response;
    return { ok: true as const, intent, message: admitted(done.value) };
  }
  if (intent === "admit-lead") {
    const done = await tryService(() =>
      services.batches.admitLead(viewer, center.id, batchId, { enquiryId: field("enquiryId") }),
    );
    if (!done.ok) return done.response;
    return { ok: true as const, intent, message: admitted(done.value) };
  }
  if (intent === "move") {
    const done = await tryService(() =>
      services.batches.move(viewer, center.id, batchId, field("studentId"), { toBatchId: field("toBatchId") }),
    );
    if (!done.ok) return done.response;
    const { moved, to } = done.value;
    return {
      ok: true as const,
      intent,
      message: `${moved.name} has moved${to.status === "waitlisted" ? `, and waits at #${to.position} there` : ""}.`,
    };
  }
  if (intent === "add-content") {
    const done = await tryService(() =>
      services.batches.addContent(viewer, center.id, batchId, { contentId: field("contentId") }),
    );
    if (!done.ok) return done.response;
    return { ok: true as const, intent, message: "The batch's students can open it now." };
  }
  if (intent === "remove-content") {
    const done = await tryService(() => services.batches.removeContent(center.id, batchId, field("contentId")));
    if (!done.ok) return done.response;
    return { ok: true as const, intent, message: "Removed from the batch." };
  }
  if (intent === "admit") {
    const done = await tryService(() =>
      services.batches.admit(viewer, center.id, field("batchId"), { csv: String(form.get("csv") ?? "") }),
    );
    if (!done.ok) return done.response;
    const { admitted, waitlisted } = done.value;
    return {
      ok: true as const,
      intent,
      message: `${admitted.length} admitted, ${waitlisted.length} on the waiting list.`,
    };
  }
  if (intent === "leave") {
    const done = await tryService(() => services.batches.leave(center.id, batchId, field("studentId")));
    if (!done.ok) return done.response;
    return { ok: true as const, intent, message: `${done.value.left.name} has left the batch.` };
  }
  return failure("Unknown action.");
}

export default function Batches({ loaderData }: Route.ComponentProps) {
  const { center, batches, open, teachers, feePlans } = loaderData;
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  const newBatch = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (!result) return;
    if (result.ok) toast.success(result.message);
    else toast.error("Could not do that", { description: result.error });
    if (result.ok && result.intent === "create") newBatch.current?.reset();
  }, [result]);
  if (!center) return <NoSubscription title="Batches" />;
  return (
    <div className="mx-auto grid max-w-6xl gap-6">
      <PageHeader
        title="Batches"
        description={`${center.instituteName}'s batches: admit students up to each one's capacity; the rest wait in order.`}
      />
      {batches.length === 0 ? (
        <EmptyState icon={<UsersRound />} title="No batches yet. Make the first one below." />
      ) : (
        <Table>
          <THead>
            <tr>
              <Th>Batch</Th>
              <Th>Starts</Th>
              <Th>Medium</Th>
              <Th className="text-right">Admitted</Th>
              <Th className="text-right">Waiting</Th>
            </tr>
          </THead>
          <TBody>
            {batches.map((b) => (
              <Tr key={b._id}>
                <Td>
                  <Link to={`?batch=${b._id}`} className="font-medium underline-offset-4 hover:underline">
                    {b.name}
                  </Link>
                  {b.course && <div className="text-muted-foreground">{b.course}</div>}
                </Td>
                <Td>{formatDate(b.startsOn)}</Td>
                <Td>{b.medium ?? "—"}</Td>
                <Td className="text-right tabular-nums">
                  {b.admitted}
                  {b.capacity !== null && ` / ${b.capacity}`}
                </Td>
                <Td className="text-right tabular-nums">{b.waitlisted}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
      {open && <BatchDetail detail={open} batches={batches} teachers={teachers} feePlans={feePlans} busy={busy} />}
      <Card>
        <CardHeader>
          <CardTitle>New batch</CardTitle>
        </CardHeader>
        <CardContent>
          <Form method="post" ref={newBatch} className="grid gap-4 sm:grid-cols-2">
            <input type="hidden" name="intent" value="create" />
            <Field label="Name">
              <Input name="name" required maxLength={120} />
            </Field>
            <Field label="Course or exam">
              <Input name="course" maxLength={120} />
            </Field>
            <Field label="Starts on">
              <Input name="startsOn" type="date" required />
            </Field>
            <Field label="Ends on">
              <Input name="endsOn" type="date" />
            </Field>
            <Field label="Capacity" hint="Leave empty for no limit">
              <Input name="capacity" type="number" min={1} />
            </Field>
            <Field label="Medium">
              <Input name="medium" maxLength={40} placeholder="English or Hindi" />
            </Field>
            <Field label="Centre">
              <Input name="centre" maxLength={120} />
            </Field>
            <FeePlanField plans={feePlans} chosen={null} />
            <TeacherChoice teachers={teachers} chosen={[]} className="sm:col-span-2" />
            <div className="flex items-end">
              <Button type="submit" disabled={busy}>
                Make batch
              </Button>
            </div>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}

type Detail = NonNullable<Route.ComponentProps["loaderData"]["open"]>;

/** The fee plan a batch's admitted students are assigned: one of the institute's, or none. */
function FeePlanField({ plans, chosen }: { plans: { _id: string; name: string }[]; chosen: string | null }) {
  return (
    <Field label="Fee plan" hint="Each student admitted is assigned it (Fees)">
      <Select name="feePlanId" defaultValue={chosen ?? ""}>
        <option value="">No fee plan</option>
        {plans.map((p) => (
          <option key={p._id} value={p._id}>
            {p.name}
          </option>
        ))}
      </Select>
    </Field>
  );
}

function BatchDetail({
  detail,
  batches,
  teachers,
  feePlans,
  busy,
}: {
  detail: Detail;
  batches: BatchJson[];
  teachers: BatchPersonJson[];
  feePlans: { _id: string; name: string }[];
  busy: boolean;
}) {
  const { batch, students, waitingList, history } = detail;
  const others = batches.filter((b) => b._id !== batch._id);
  const nameOf = new Map(batches.map((b) => [b._id, b.name]));
  return (
    <Card>
      <CardHeader>
        <CardTitle>{batch.name}</CardTitle>
        <p className="text-sm text-muted-foreground">
          {[batch.course, `from ${formatDate(batch.startsOn)}`, batch.medium, batch.centre].filter(Boolean).join(" · ")}
        </p>
        <Link
          className="text-sm font-medium text-primary underline-offset-4 hover:underline"
          to={`/business/batches/${batch._id}/timetable`}
        >
          Timetable, holidays and classes
        </Link>
      </CardHeader>
      <CardContent className="grid gap-6">
        <Form method="post" className="flex flex-wrap items-end gap-2" aria-label="Fee plan">
          <input type="hidden" name="intent" value="fee-plan" />
          <input type="hidden" name="batchId" value={batch._id} />
          <FeePlanField plans={feePlans} chosen={batch.feePlan?._id ?? null} />
          <Button type="submit" size="sm" variant="outline" disabled={busy}>
            Save fee plan
          </Button>
        </Form>
        <Form method="post" className="grid gap-2" aria-label="Teachers">
          <input type="hidden" name="intent" value="teachers" />
          <input type="hidden" name="batchId" value={batch._id} />
          <TeacherChoice teachers={teachers} chosen={batch.teachers.map((t) => t._id)} />
          <div>
            <Button type="submit" size="sm" variant="outline" disabled={busy}>
              Save teachers
            </Button>
          </div>
        </Form>
        <section aria-label="Students">
          <h3 className="mb-2 font-medium">
            Students ({students.length}
            {batch.capacity !== null && ` of ${batch.capacity} seats`})
          </h3>
          <People rows={students} batchId={batch._id} others={others} busy={busy} />
        </section>
        <section aria-label="Waiting list">
          <h3 className="mb-2 font-medium">Waiting list ({waitingList.length})</h3>
          <People rows={waitingList} batchId={batch._id} others={others} busy={busy} />
        </section>
        {history.length > 0 && (
          <section aria-label="History">
            <h3 className="mb-2 font-medium">History</h3>
            <ul className="text-sm text-muted-foreground">
              {history.map((h) => (
                <li key={h._id}>
                  {h.name}:{" "}
                  {h.status === "moved"
                    ? `moved to ${(h.movedTo && nameOf.get(h.movedTo)) ?? "another batch"}`
                    : "left"}
                  {h.leftAt && ` on ${formatDate(h.leftAt)}`}
                </li>
              ))}
            </ul>
          </section>
        )}
        <section aria-label="Contents" className="grid gap-2">
          <h3 className="font-medium">What the batch opens to its students ({detail.contents.length})</h3>
          {detail.contents.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              Nothing yet: add the institute&apos;s items, tests and series.
            </p>
          ) : (
            <ul className="grid gap-1 text-sm">
              {detail.contents.map((c) => (
                <li key={c._id} className="flex items-center gap-3">
                  <Badge tone="muted">{CONTENT_TYPE_LABELS[c.type]}</Badge>
                  <span className="font-medium">{c.title}</span>
                  <Form method="post" className="ml-auto">
                    <input type="hidden" name="intent" value="remove-content" />
                    <input type="hidden" name="batchId" value={batch._id} />
                    <input type="hidden" name="contentId" value={c._id} />
                    <Button
                      type="submit"
                      size="sm"
                      variant="outline"
                      disabled={busy}
                      aria-label={`Remove ${c.title} from the batch`}
                    >
                      Remove
                    </Button>
                  </Form>
                </li>
              ))}
            </ul>
          )}
          {detail.contentChoices.length > 0 && (
            // Keyed by what is in the batch: once one is added, the select starts again from its prompt.
            <Form method="post" key={detail.contents.length} className="flex flex-wrap items-end gap-2">
              <input type="hidden" name="intent" value="add-content" />
              <input type="hidden" name="batchId" value={batch._id} />
              <Field label="Add content" className="min-w-64 flex-1">
                <Select name="contentId" required defaultValue="">
                  <option value="" disabled>
                    Choose an item, test or series
                  </option>
                  {detail.contentChoices.map((c) => (
                    <option key={c._id} value={c._id}>
                      {c.title} ({CONTENT_TYPE_LABELS[c.type]})
                    </option>
                  ))}
                </Select>
              </Field>
              <Button type="submit" disabled={busy}>
                Add
              </Button>
            </Form>
          )}
        </section>
        <section aria-label="Enquiries" className="grid gap-2">
          <h3 className="font-medium">Admit from enquiries</h3>
          {detail.leads.length === 0 ? (
            <p className="text-sm text-muted-foreground">No open enquiries.</p>
          ) : (
            <ul className="grid gap-1 text-sm">
              {detail.leads.map((l) => (
                <li key={l._id} className="flex items-center gap-3">
                  <span className="font-medium">{l.name}</span>
                  <span className="text-muted-foreground">{l.email ?? l.phone}</span>
                  <Badge tone="muted">{l.status}</Badge>
                  <Form method="post" className="ml-auto">
                    <input type="hidden" name="intent" value="admit-lead" />
                    <input type="hidden" name="batchId" value={batch._id} />
                    <input type="hidden" name="enquiryId" value={l._id} />
                    <Button type="submit" size="sm" disabled={busy} aria-label={`Admit ${l.name}`}>
                      Admit
                    </Button>
                  </Form>
                </li>
              ))}
            </ul>
          )}
        </section>
        <StudentPicker candidates={detail.candidates} batchId={batch._id} busy={busy} />
        <Form method="post" className="grid gap-2">
          <input type="hidden" name="intent" value="admit" />
          <input type="hidden" name="batchId" value={batch._id} />
          <Field
            label="Admit by CSV"
            hint="Columns name,email,phone with a header row. Any bad row stops the whole file."
          >
            <Textarea
              name="csv"
              rows={5}
              required
              placeholder={"name,email,phone\nAsha Kumar,asha@example.com,98300 12345"}
            />
          </Field>
          <div>
            <Button type="submit" disabled={busy}>
              Admit
            </Button>
          </div>
        </Form>
      </CardContent>
    </Card>
  );
}

/** The institute's people who may teach, as checkboxes (`teacherIds`), those named already ticked. */
function TeacherChoice({
  teachers,
  chosen,
  className,
}: {
  teachers: BatchPersonJson[];
  chosen: string[];
  className?: string;
}) {
  return (
    <fieldset className={className}>
      <legend className="mb-1.5 text-sm font-medium">Teachers</legend>
      {teachers.length === 0 ? (
        <p className="text-sm text-muted-foreground">Invite teachers from the Team page first.</p>
      ) : (
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {teachers.map((t) => (
            <label key={t._id} className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="teacherIds" value={t._id} defaultChecked={chosen.includes(t._id)} />
              {t.name}
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}

/** The institute's students not in the batch, found by name or e-mail, admitted one at a time. */
function StudentPicker({
  candidates,
  batchId,
  busy,
}: {
  candidates: BatchPersonJson[];
  batchId: string;
  busy: boolean;
}) {
  const [query, setQuery] = useState("");
  const words = query.trim().toLowerCase();
  const found = words
    ? candidates.filter((c) => `${c.name} ${c.email}`.toLowerCase().includes(words)).slice(0, 10)
    : [];
  return (
    <section aria-label="Admit a student" className="grid gap-2">
      <Field label="Admit a student of the institute" hint={`${candidates.length} not in this batch`}>
        <Input
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="Search by name or e-mail"
        />
      </Field>
      {words && found.length === 0 && <p className="text-sm text-muted-foreground">Nobody matches.</p>}
      <ul className="grid gap-1 text-sm">
        {found.map((c) => (
          <li key={c._id} className="flex items-center gap-3">
            <span className="font-medium">{c.name}</span>
            <span className="text-muted-foreground">{c.email}</span>
            <Form method="post" className="ml-auto">
              <input type="hidden" name="intent" value="admit-student" />
              <input type="hidden" name="batchId" value={batchId} />
              <input type="hidden" name="studentId" value={c._id} />
              <Button type="submit" size="sm" disabled={busy} aria-label={`Admit ${c.name}`}>
                Admit
              </Button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}

function People({
  rows,
  batchId,
  others,
  busy,
}: {
  rows: BatchStudentJson[];
  batchId: string;
  others: BatchJson[];
  busy: boolean;
}) {
  const submit = useSubmit();
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">Nobody.</p>;
  return (
    <ul className="grid gap-2 text-sm">
      {rows.map((s) => (
        <li key={s._id} className="flex flex-wrap items-center gap-3">
          {s.position !== null && <Badge tone="muted">#{s.position}</Badge>}
          <span className="font-medium">{s.name}</span>
          <span className="text-muted-foreground">{s.email}</span>
          <span className="ml-auto flex items-center gap-2">
            {others.length > 0 && (
              <Form method="post" className="flex items-center gap-2">
                <input type="hidden" name="intent" value="move" />
                <input type="hidden" name="batchId" value={batchId} />
                <input type="hidden" name="studentId" value={s.studentId} />
                <Select
                  name="toBatchId"
                  required
                  defaultValue=""
                  className="h-8 w-48"
                  aria-label={`Batch to move ${s.name} to`}
                >
                  <option value="" disabled>
                    Move to…
                  </option>
                  {others.map((b) => (
                    <option key={b._id} value={b._id}>
                      {b.name}
                    </option>
                  ))}
                </Select>
                <Button type="submit" size="sm" variant="outline" disabled={busy} aria-label={`Move ${s.name}`}>
                  Move
                </Button>
              </Form>
            )}
            <ConfirmedSubmit
              button={(type) => (
                <Button
                  type={type}
                  size="sm"
                  variant="outline"
                  disabled={busy}
                  aria-label={`Remove ${s.name} from the batch`}
                >
                  Remove
                </Button>
              )}
              fields={{ intent: "leave", batchId, studentId: s.studentId }}
              submit={(fields) => submit(fields, { method: "post" })}
              title={`Remove ${s.name} from the batch?`}
              description="They are kept in the batch's history; the first on the waiting list takes a freed seat."
              confirmLabel="Remove"
            />
          </span>
        </li>
      ))}
    </ul>
  );
}
