import { useEffect } from "react";
import { Form, Link, useActionData, useNavigation } from "react-router";
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
import { Input, Textarea } from "~/components/ui/input";
import { EmptyState } from "~/components/ui/empty-state";
import { NoSubscription } from "~/components/business/no-subscription";
import { formatDate } from "#common/format.ts";
import type { BatchJson, BatchStudentJson } from "#common/validation/batches.ts";

export const meta: Route.MetaFunction = () => [{ title: "Batches | Business" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { center, services } = await loadBusinessCenter(context, request);
  if (!center) return { center: null, batches: [] as BatchJson[], open: null };
  const batches = await services.batches.list(center.id);
  const chosen = new URL(request.url).searchParams.get("batch");
  const open =
    chosen && batches.some((b) => b._id === chosen) ? await services.batches.detail(center.id, chosen) : null;
  return { center: { instituteName: center.instituteName }, batches, open };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { center, services, may, viewer } = await loadBusinessCenter(context, request);
  if (!center) return failure("No active subscription found.", 404);
  if (!may("batches.manage")) return failure(notAllowed("batches.manage"), 403);
  const form = await request.formData();
  const field = (name: string) => String(form.get(name) ?? "").trim();
  const intent = field("intent");
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
      }),
    );
    if (!done.ok) return done.response;
    return { ok: true as const, message: `${done.value.name} is made.` };
  }
  if (intent === "admit") {
    const done = await tryService(() =>
      services.batches.admit(viewer, center.id, field("batchId"), { csv: String(form.get("csv") ?? "") }),
    );
    if (!done.ok) return done.response;
    const { admitted, waitlisted } = done.value;
    return { ok: true as const, message: `${admitted.length} admitted, ${waitlisted.length} on the waiting list.` };
  }
  if (intent === "leave") {
    const done = await tryService(() => services.batches.leave(center.id, field("batchId"), field("studentId")));
    if (!done.ok) return done.response;
    return { ok: true as const, message: `${done.value.left.name} has left the batch.` };
  }
  return failure("Unknown action.");
}

export default function Batches({ loaderData }: Route.ComponentProps) {
  const { center, batches, open } = loaderData;
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== "idle";
  useEffect(() => {
    if (!result) return;
    if (result.ok) toast.success(result.message);
    else toast.error("Could not do that", { description: result.error });
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
      {open && <BatchDetail detail={open} busy={busy} />}
      <Card>
        <CardHeader>
          <CardTitle>New batch</CardTitle>
        </CardHeader>
        <CardContent>
          <Form method="post" className="grid gap-4 sm:grid-cols-2">
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

type Detail = {
  batch: BatchJson;
  students: BatchStudentJson[];
  waitingList: BatchStudentJson[];
  history: BatchStudentJson[];
};

function BatchDetail({ detail, busy }: { detail: Detail; busy: boolean }) {
  const { batch, students, waitingList, history } = detail;
  return (
    <Card>
      <CardHeader>
        <CardTitle>{batch.name}</CardTitle>
        <Link to={`/business/batches/${batch._id}/timetable`}>Timetable, holidays and classes</Link>
      </CardHeader>
      <CardContent className="grid gap-6">
        <section aria-label="Students">
          <h3 className="mb-2 font-medium">Students ({students.length})</h3>
          <People rows={students} batchId={batch._id} busy={busy} />
        </section>
        <section aria-label="Waiting list">
          <h3 className="mb-2 font-medium">Waiting list ({waitingList.length})</h3>
          <People rows={waitingList} batchId={batch._id} busy={busy} />
        </section>
        {history.length > 0 && (
          <section aria-label="History">
            <h3 className="mb-2 font-medium">History</h3>
            <ul className="text-sm text-muted-foreground">
              {history.map((h) => (
                <li key={h._id}>
                  {h.name}: {h.status === "moved" ? "moved to another batch" : "left"}
                  {h.leftAt && ` on ${formatDate(h.leftAt)}`}
                </li>
              ))}
            </ul>
          </section>
        )}
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

function People({ rows, batchId, busy }: { rows: BatchStudentJson[]; batchId: string; busy: boolean }) {
  if (rows.length === 0) return <p className="text-sm text-muted-foreground">Nobody.</p>;
  return (
    <ul className="grid gap-1 text-sm">
      {rows.map((s) => (
        <li key={s._id} className="flex items-center gap-3">
          {s.position !== null && <Badge tone="muted">#{s.position}</Badge>}
          <span className="font-medium">{s.name}</span>
          <span className="text-muted-foreground">{s.email}</span>
          <Form method="post" className="ml-auto">
            <input type="hidden" name="intent" value="leave" />
            <input type="hidden" name="batchId" value={batchId} />
            <input type="hidden" name="studentId" value={s.studentId} />
            <Button
              type="submit"
              size="sm"
              variant="outline"
              disabled={busy}
              aria-label={`Remove ${s.name} from the batch`}
            >
              Remove
            </Button>
          </Form>
        </li>
      ))}
    </ul>
  );
}
