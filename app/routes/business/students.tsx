import { Fragment, useEffect, useRef, useState } from "react";
import { Form, useActionData, useNavigation, useSearchParams, useSubmit } from "react-router";
import { GraduationCap, Search, UserPlus, X } from "lucide-react";
import type { Route } from "./+types/students";
import { actOnFamilies, loadBusinessStudents } from "~/lib/families.server";
import { toast } from "~/lib/toast";
import { PageHeader } from "~/components/ui/page-header";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { Button, ButtonLink } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { EmptyState } from "~/components/ui/empty-state";
import { NoSubscription } from "~/components/business/no-subscription";
import { LONGEST_STUDENT_SEARCH, RELATION_LABELS, type GuardianJson } from "#common/family.ts";
import { GuardianStatusBadge, ParentFields } from "~/components/families/parent-fields";

export const meta: Route.MetaFunction = () => [{ title: "Students | Business" }];

export const loader = ({ request, context }: Route.LoaderArgs) => loadBusinessStudents(context, request);

export const action = ({ request, context }: Route.ActionArgs) => actOnFamilies(context, request);

export default function Students({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  // The student whose invite form is open, and the last answer when it was opened: a successful
  // answer since then closes it, a refusal leaves it open to correct.
  const [opened, setOpened] = useState<{ studentId: string; after: typeof result } | null>(null);
  const adding = opened && (opened.after === result || (result && !result.ok)) ? opened.studentId : null;
  const setAdding = (studentId: string | null) => setOpened(studentId ? { studentId, after: result } : null);
  useEffect(() => {
    if (!result) return;
    if (result.ok) toast.success(result.message);
    else toast.error("Could not save", { description: result.error });
  }, [result]);
  if (!loaderData.center) return <NoSubscription title="Students" />;
  const { center, q, page, pages, first, total, students } = loaderData;
  return (
    <div className="mx-auto grid max-w-6xl gap-6">
      <PageHeader
        title="Students"
        description={`${center.instituteName}'s students and their parents. A parent sees their child's timetable, attendance, results and fees once they agree to the consent notice sent to their mobile.`}
      />
      <Card>
        <CardContent className="grid gap-4 pt-6">
          <SearchBar q={q} />
          {students.length === 0 ? (
            <EmptyState icon={<GraduationCap aria-hidden />} title={q ? "No student matches" : "No students yet"}>
              {q
                ? "Try part of the name, the e-mail address or the phone number."
                : "Students appear here when they sign up on your site, buy from it, or are admitted to a batch."}
            </EmptyState>
          ) : (
            <>
              <p className="text-sm text-muted-foreground" aria-live="polite">
                {total > students.length
                  ? `Showing ${first}–${first + students.length - 1} of ${total} students.`
                  : `${total} ${total === 1 ? "student" : "students"}.`}
              </p>
              <Table>
                <THead>
                  <Tr>
                    <Th>Student</Th>
                    <Th>Parents</Th>
                    <Th className="w-40 text-right">
                      <span className="sr-only">Actions</span>
                    </Th>
                  </Tr>
                </THead>
                <TBody>
                  {students.map((student) => (
                    <Fragment key={student._id}>
                      <Tr className="align-top">
                        <Td>
                          <div className="font-medium">{student.name}</div>
                          <div className="text-xs text-muted-foreground">{student.email}</div>
                        </Td>
                        <Td>
                          {student.parents.length === 0 ? (
                            <span className="text-sm text-muted-foreground">None linked</span>
                          ) : (
                            <ul className="grid gap-1.5">
                              {student.parents.map((parent) => (
                                <ParentLine key={parent._id} parent={parent} />
                              ))}
                            </ul>
                          )}
                        </Td>
                        <Td className="text-right">
                          {adding !== student._id && (
                            <Button type="button" variant="outline" size="sm" onClick={() => setAdding(student._id)}>
                              <UserPlus className="size-4" aria-hidden />
                              Add parent
                            </Button>
                          )}
                        </Td>
                      </Tr>
                      {adding === student._id && (
                        <Tr>
                          <Td colSpan={3}>
                            <AddParentForm
                              studentId={student._id}
                              name={student.name}
                              onCancel={() => setAdding(null)}
                            />
                          </Td>
                        </Tr>
                      )}
                    </Fragment>
                  ))}
                </TBody>
              </Table>
              {pages > 1 && <Pager page={page} pages={pages} />}
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** The search box: asks the server as one types (once typing pauses), or on Search. */
function SearchBar({ q }: { q: string }) {
  const submit = useSubmit();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (
    <Form
      method="get"
      role="search"
      className="flex flex-wrap items-end gap-3"
      onChange={(e) => {
        const form = e.currentTarget;
        clearTimeout(timer.current);
        // Searching as you type, without a request per keystroke; a new search starts at its first page.
        timer.current = setTimeout(() => submit(form, { replace: true, preventScrollReset: true }), 300);
      }}
      onSubmit={() => clearTimeout(timer.current)}
    >
      <Field label="Search" className="min-w-64 flex-1">
        <Input
          name="q"
          type="search"
          placeholder="Name, e-mail or phone"
          defaultValue={q}
          maxLength={LONGEST_STUDENT_SEARCH}
        />
      </Field>
      <Button type="submit" variant="outline">
        <Search className="size-4" aria-hidden />
        Search
      </Button>
    </Form>
  );
}

function Pager({ page, pages }: { page: number; pages: number }) {
  const [params] = useSearchParams();
  const to = (n: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(n));
    return `?${next}`;
  };
  return (
    <nav aria-label="Pages" className="flex items-center justify-between text-sm">
      <span className="text-muted-foreground">
        Page {page} of {pages}
      </span>
      <div className="flex gap-2">
        <PageLink to={page > 1 ? to(page - 1) : null}>Previous</PageLink>
        <PageLink to={page < pages ? to(page + 1) : null}>Next</PageLink>
      </div>
    </nav>
  );
}

/** A pager's step: a link while there is somewhere to go, a disabled button (no link to follow) at an end. */
function PageLink({ to, children }: { to: string | null; children: string }) {
  return to ? (
    <ButtonLink to={to} variant="outline" size="sm">
      {children}
    </ButtonLink>
  ) : (
    <Button variant="outline" size="sm" disabled>
      {children}
    </Button>
  );
}

function ParentLine({ parent }: { parent: GuardianJson }) {
  const busy = useNavigation().state !== "idle";
  const live = parent.status === "invited" || parent.status === "active";
  return (
    <li className="flex flex-wrap items-center gap-2 text-sm">
      <span className="font-medium">{parent.name}</span>
      <span className="text-muted-foreground">
        {RELATION_LABELS[parent.relation]} · {parent.phone}
      </span>
      <GuardianStatusBadge parent={parent} />
      {live && (
        <Form method="post">
          <input type="hidden" name="intent" value="remove" />
          <input type="hidden" name="guardianId" value={parent._id} />
          <Button
            type="submit"
            variant="ghost"
            size="sm"
            disabled={busy}
            aria-label={`Remove ${parent.name}'s link`}
            title={parent.status === "invited" ? "Withdraw the invitation" : "Remove the link"}
          >
            <X className="size-4" aria-hidden />
          </Button>
        </Form>
      )}
    </li>
  );
}

function AddParentForm({ studentId, name, onCancel }: { studentId: string; name: string; onCancel: () => void }) {
  const busy = useNavigation().state !== "idle";
  return (
    <Form method="post" className="grid gap-3 rounded-md border bg-muted/30 p-4">
      <p className="text-sm font-medium">Invite a parent of {name}</p>
      <input type="hidden" name="intent" value="invite" />
      <input type="hidden" name="studentId" value={studentId} />
      <div className="grid gap-3 sm:grid-cols-[1fr_10rem_1fr] sm:items-end">
        <ParentFields phoneHint="The link to the consent notice goes here on WhatsApp and SMS." />
      </div>
      <div className="flex gap-2">
        <Button type="submit" disabled={busy}>
          {busy ? "Sending..." : "Send invitation"}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}
