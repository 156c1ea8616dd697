import { useEffect, useRef, useState } from "react";
import { Form, useActionData, useFetcher, useNavigation } from "react-router";
import { toast } from "~/lib/toast";
import { Check, Copy, Link2, MailPlus, UserMinus, Users } from "lucide-react";
import type { Route } from "./+types/team";
import { loadBusinessCenter, notAllowed } from "~/lib/business.server";
import { INVITABLE_ROLES, ROLE_LABELS, type InvitableRole, type MemberJson } from "#common/memberships.ts";
import { failure, tryService } from "~/lib/actions.server";
import { formatDate } from "#common/format.ts";
import { INVITE_TTL_DAYS, TEAM_EMPTY } from "#common/validation/team.ts";
import type { TeamEntryJson } from "#common/team-types.ts";
import { PageHeader } from "~/components/ui/page-header";
import { Button, ButtonLink } from "~/components/ui/button";
import { Input, Select } from "~/components/ui/input";
import { Field } from "~/components/ui/field";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { ConfirmedSubmit } from "~/components/ui/confirm";
import { EmptyState } from "~/components/ui/empty-state";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { NoSubscription } from "~/components/business/no-subscription";

export const meta: Route.MetaFunction = () => [{ title: "Team | Business" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { center, services, grants, may } = await loadBusinessCenter(context, request);
  if (!center) return { center: null, team: [], people: [], grantable: [], mayRemove: false };
  const everyone = await services.members.list(center.id);
  return {
    center: { id: center.id, instituteName: center.instituteName },
    // What the person's roles here allow (the policy's, decision 0039): whom they may invite, and removing.
    grantable: INVITABLE_ROLES.filter(grants),
    mayRemove: may("members.remove"),
    team: await services.team.list(center.id),
    // Creators are the team list above; students are the Leads' and sales' business, not the team's.
    people: everyone.filter((m) => m.role === "staff" || m.role === "teacher"),
  };
}

/** Invite (or a fresh link for a pending address) and remove/revoke, through the same service as the API. */
export async function action({ request, context }: Route.ActionArgs) {
  const { viewer, center, services, may } = await loadBusinessCenter(context, request);
  if (!center) return failure("No active subscription found.", 404);
  const form = await request.formData();
  const intent = form.get("intent");
  if ((intent === "remove" || intent === "remove-person") && !may("members.remove"))
    return failure(notAllowed("members.remove"), 403);
  if (intent === "invite" || intent === "new-link") {
    // Every role, by e-mail or mobile number: the one invitation function POST
    // /api/centers/{id}/members and POST /api/team/invitations use, under the same policy.
    const result = await tryService(async () => {
      const made = await services.members.inviteAt(viewer, center.id, {
        email: form.get("email") ?? "",
        phone: form.get("phone") ?? "",
        role: form.get("role") ?? "creator",
      });
      return { link: made.link, entry: await services.members.one(center.id, made.id) };
    });
    if (!result.ok) return result.response;
    const { entry, link } = result.value;
    const address = entry?.phone ?? entry?.email ?? "";
    return { ok: true as const, intent, link, address, expiresAt: entry?.expiresAt ?? null };
  }
  if (intent === "remove-person") {
    const result = await tryService(() => services.members.remove(center.id, String(form.get("id") ?? "")));
    if (!result.ok) return result.response;
    return {
      ok: true as const,
      intent: "remove" as const,
      address: result.value.email ?? result.value.phone ?? "",
      wasMember: result.value.acceptedAt !== null,
      person: true,
    };
  }
  if (intent === "remove") {
    const result = await tryService(() => services.team.remove(center.id, String(form.get("id") ?? "")));
    if (!result.ok) return result.response;
    return { ok: true as const, intent, address: result.value.address, wasMember: result.value.acceptedAt !== null };
  }
  return failure("Unknown action");
}

type Remover = ReturnType<typeof useFetcher<Result>> | null;

type Result =
  | { ok: true; intent: "invite" | "new-link"; link: string; address: string; expiresAt: string | null }
  | { ok: true; intent: "remove"; address: string; wasMember: boolean; person?: boolean }
  | { ok: false; error: string };

export default function Team({ loaderData }: Route.ComponentProps) {
  const actionData = useActionData<typeof action>() as Result | undefined;
  const { center, team, people, grantable } = loaderData;
  useEffect(() => {
    if (actionData?.ok && "link" in actionData)
      toast.success("Invitation link ready", {
        description: `Copy it and send it to ${actionData.address}.`,
        duration: 5000,
      });
  }, [actionData]);
  // Removing lives here, not in the row: the row is gone by the time the answer is shown.
  const fetcher = useFetcher<Result>();
  // Without members.remove (staff) the page offers no Remove or Revoke.
  const remover = loaderData.mayRemove ? fetcher : null;
  const removed = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (!removed) return;
    if (removed.ok && "wasMember" in removed) {
      toast.success(removed.wasMember ? "Member removed" : "Invitation revoked", {
        description: removed.wasMember
          ? removed.person
            ? `${removed.address} no longer has a role at your institute.`
            : `${removed.address}'s content is off your website.`
          : `The link sent to ${removed.address} no longer works.`,
        duration: 5000,
      });
    } else if (!removed.ok) toast.error("Something went wrong", { description: removed.error, duration: 4000 });
  }, [removed]);

  if (!center) {
    return <NoSubscription title="Team" />;
  }
  const pending = team.filter((e) => e.status === "pending");
  const members = team.filter((e) => e.status === "accepted");
  const past = team.filter((e) => e.status === "removed");
  const issued = actionData?.ok && "link" in actionData ? actionData : null;

  return (
    <div className="mx-auto grid max-w-5xl gap-6">
      <PageHeader
        title="Team"
        description={`Creators on ${center.instituteName}'s team can put their classes and materials on your website. Nobody else can.`}
        actions={
          <ButtonLink to="/business/content" variant="outline">
            Website Content
          </ButtonLink>
        }
      />

      {/* The page's own forms (invite, new link) show their refusal under the address field. */}
      {grantable.length > 0 && (
        <InviteCard roles={grantable} error={actionData && !actionData.ok ? actionData.error : null} />
      )}
      {issued && <IssuedLink link={issued.link} address={issued.address} expiresAt={issued.expiresAt} />}

      {people.length > 0 && <PeopleByRole people={people} remover={remover} />}

      {team.length === 0 ? (
        <EmptyState icon={<Users />} title={TEAM_EMPTY} />
      ) : (
        <>
          <section aria-labelledby="members-heading" className="grid gap-3">
            <h2 id="members-heading" className="text-lg font-semibold">
              Members <span className="text-muted-foreground">({members.length})</span>
            </h2>
            {members.length === 0 ? (
              <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
                No one has joined yet. Members appear here once they accept their invitation.
              </p>
            ) : (
              <Table>
                <THead>
                  <tr>
                    <Th>Creator</Th>
                    <Th>Joined</Th>
                    <Th className="text-right">Actions</Th>
                  </tr>
                </THead>
                <TBody>
                  {members.map((m) => (
                    <Tr key={m._id}>
                      <Td>
                        <div className="font-medium">{m.name ?? m.address}</div>
                        <div className="text-muted-foreground">{m.address}</div>
                      </Td>
                      <Td className="whitespace-nowrap text-muted-foreground">
                        {m.acceptedAt ? formatDate(m.acceptedAt) : "—"}
                        {m.joinedBeforeTeams && (
                          <Badge
                            tone="muted"
                            className="ml-2"
                            title="Added when teams began, because they already had content on your website"
                          >
                            Added automatically
                          </Badge>
                        )}
                      </Td>
                      <Td className="text-right">
                        <RemoveButton
                          remover={remover}
                          entry={m}
                          label="Remove"
                          title={`Remove ${m.name ?? m.address} from the team?`}
                          description="Their classes and materials leave your website at once. You can invite them again later."
                        />
                      </Td>
                    </Tr>
                  ))}
                </TBody>
              </Table>
            )}
          </section>

          <section aria-labelledby="pending-heading" className="grid gap-3">
            <h2 id="pending-heading" className="text-lg font-semibold">
              Pending invitations <span className="text-muted-foreground">({pending.length})</span>
            </h2>
            {pending.length === 0 ? (
              <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
                No invitations waiting.
              </p>
            ) : (
              <Table>
                <THead>
                  <tr>
                    <Th>E-mail</Th>
                    <Th>Link</Th>
                    <Th className="text-right">Actions</Th>
                  </tr>
                </THead>
                <TBody>
                  {pending.map((p) => (
                    <Tr key={p._id}>
                      <Td>
                        <div className="font-medium">{p.address}</div>
                        <div className="text-xs text-muted-foreground">
                          Invited {formatDate(p.invitedAt)}
                          {p.invitedBy ? ` by ${p.invitedBy}` : ""}
                        </div>
                      </Td>
                      <Td className="whitespace-nowrap">
                        {p.expired || !p.expiresAt ? (
                          <Badge tone="destructive">Expired</Badge>
                        ) : (
                          <Badge tone="muted">Valid until {formatDate(p.expiresAt)}</Badge>
                        )}
                      </Td>
                      <Td>
                        <div className="flex justify-end gap-2 whitespace-nowrap">
                          <Form method="post">
                            <input type="hidden" name="intent" value="new-link" />
                            {/* A fresh link goes where the first one went: an e-mail address or a mobile number. */}
                            <input type="hidden" name={p.address.includes("@") ? "email" : "phone"} value={p.address} />
                            <Button type="submit" size="sm" variant="outline" aria-label={`New link for ${p.address}`}>
                              <Link2 className="size-4" aria-hidden /> New link
                            </Button>
                          </Form>
                          <RemoveButton
                            remover={remover}
                            entry={p}
                            label="Revoke"
                            title={`Revoke the invitation to ${p.address}?`}
                            description="Its link stops working at once."
                          />
                        </div>
                      </Td>
                    </Tr>
                  ))}
                </TBody>
              </Table>
            )}
          </section>

          {past.length > 0 && (
            <details className="rounded-lg border p-4 text-sm">
              <summary className="cursor-pointer font-medium">
                Removed members and revoked invitations ({past.length})
              </summary>
              <ul className="mt-3 grid gap-2">
                {past.map((p) => (
                  <li key={p._id} className="flex flex-wrap items-center justify-between gap-2 text-muted-foreground">
                    <span>
                      <span className="text-foreground">{p.name ?? p.address}</span>
                      {p.name ? ` (${p.address})` : ""}
                    </span>
                    <span>
                      {p.acceptedAt ? "Removed" : "Invitation revoked"} {p.removedAt ? formatDate(p.removedAt) : ""}
                    </span>
                  </li>
                ))}
              </ul>
            </details>
          )}
        </>
      )}
    </div>
  );
}

function InviteCard({ roles, error }: { roles: readonly InvitableRole[]; error: string | null }) {
  const navigation = useNavigation();
  const inviting = navigation.state !== "idle" && navigation.formData?.get("intent") === "invite";
  const formRef = useRef<HTMLFormElement>(null);
  const actionData = useActionData<typeof action>() as Result | undefined;
  // A new invitation clears the field for the next one.
  useEffect(() => {
    if (actionData?.ok && "link" in actionData && actionData.intent === "invite") formRef.current?.reset();
  }, [actionData]);
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <MailPlus className="size-5 text-primary" aria-hidden /> Invite to your team
        </CardTitle>
        <CardDescription>
          Creators put their classes and materials on your website; teachers write tests; staff (front desk, accountant)
          bring people in. You get a link to send them, and it is e-mailed to them too, or sent on WhatsApp and by SMS
          to a mobile number. It works once, for {INVITE_TTL_DAYS} days, for the account registered with that address or
          that has verified that number.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" ref={formRef} className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <input type="hidden" name="intent" value="invite" />
          <Field label="Role" className="sm:w-40">
            <Select name="role" defaultValue="creator">
              {roles.map((role) => (
                <option key={role} value={role}>
                  {ROLE_LABELS[role]}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="E-mail address" error={error} className="flex-1">
            <Input name="email" type="email" autoComplete="off" placeholder="teacher@example.com" maxLength={254} />
          </Field>
          <Field label="or mobile number" className="sm:w-48">
            <Input name="phone" type="tel" autoComplete="off" placeholder="98765 43210" maxLength={30} />
          </Field>
          <Button type="submit" disabled={inviting} className="sm:mt-[1.375rem]">
            {inviting ? "Creating link..." : "Create invitation link"}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}

/** The link just made, to copy (the server keeps only its hash, so it is shown once; "New link" makes another). */
function IssuedLink({ link, address, expiresAt }: { link: string; address: string; expiresAt: string | null }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      toast.success("Link copied", { duration: 5000 });
    } catch {
      toast.error("Could not copy", { description: "Select the link and copy it yourself.", duration: 4000 });
    }
  };
  return (
    <div role="status" className="grid gap-3 rounded-xl border border-primary/30 bg-primary/5 p-5">
      <p className="text-sm">
        Invitation link for <strong>{address}</strong>
        {expiresAt ? `, valid until ${formatDate(expiresAt)}` : ""}. Send it to them;{" "}
        {address.includes("@")
          ? "they sign in with that address and accept."
          : "they accept with the account that has verified that number."}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          readOnly
          value={link}
          aria-label={`Invitation link for ${address}`}
          onFocus={(e) => e.currentTarget.select()}
          className="font-mono text-xs"
        />
        <Button type="button" variant="default" onClick={copy} className="sm:w-32">
          {copied ? <Check className="size-4" aria-hidden /> : <Copy className="size-4" aria-hidden />}
          {copied ? "Copied" : "Copy link"}
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">
        This link is shown only now. If it is lost, make a new one from the list below.
      </p>
    </div>
  );
}

/** Staff and teachers, by role: who holds each and who is invited, each removable (kept as history). */
function PeopleByRole({ people, remover }: { people: MemberJson[]; remover: Remover }) {
  const live = people.filter((p) => p.status !== "removed");
  return (
    <section aria-labelledby="people-heading" className="grid gap-3">
      <h2 id="people-heading" className="text-lg font-semibold">
        Staff and teachers <span className="text-muted-foreground">({live.length})</span>
      </h2>
      {live.length === 0 ? (
        <p className="rounded-lg border border-dashed p-6 text-center text-sm text-muted-foreground">
          No staff or teachers yet.
        </p>
      ) : (
        <Table>
          <THead>
            <tr>
              <Th>Person</Th>
              <Th>Role</Th>
              <Th>Status</Th>
              <Th className="text-right">Actions</Th>
            </tr>
          </THead>
          <TBody>
            {live.map((p) => {
              // Invited by e-mail or by mobile number.
              const address = p.email ?? p.phone ?? "";
              return (
                <Tr key={p._id}>
                  <Td>
                    <div className="font-medium">{p.name ?? address}</div>
                    {p.name && <div className="text-muted-foreground">{address}</div>}
                  </Td>
                  <Td>
                    {ROLE_LABELS[p.role]}
                    {p.duty ? <span className="text-muted-foreground"> ({p.duty})</span> : null}
                  </Td>
                  <Td className="whitespace-nowrap">
                    {p.status === "active" ? (
                      <Badge tone="muted">Joined {p.acceptedAt ? formatDate(p.acceptedAt) : ""}</Badge>
                    ) : p.expired ? (
                      <Badge tone="destructive">Expired</Badge>
                    ) : (
                      <Badge tone="muted">Invited, valid until {p.expiresAt ? formatDate(p.expiresAt) : ""}</Badge>
                    )}
                  </Td>
                  <Td className="text-right">
                    <RemoveButton
                      remover={remover}
                      entry={{ _id: p._id, name: p.name, address }}
                      intent="remove-person"
                      label={p.status === "active" ? "Remove" : "Revoke"}
                      title={
                        p.status === "active"
                          ? `Remove ${p.name ?? address} as ${ROLE_LABELS[p.role].toLowerCase()}?`
                          : `Revoke the invitation to ${address}?`
                      }
                      description={
                        p.status === "active"
                          ? "They lose this role at once. You can invite them again later."
                          : "Its link stops working at once."
                      }
                    />
                  </Td>
                </Tr>
              );
            })}
          </TBody>
        </Table>
      )}
    </section>
  );
}

/**
 * Removing asks first once the page runs JavaScript; before that (or without it) the button
 * posts the form directly, so the page works either way.
 */
type RemoveProps = {
  entry: Pick<TeamEntryJson, "_id" | "name" | "address">;
  intent?: "remove" | "remove-person";
  label: string;
  title: string;
  description: string;
};

/** Remove or Revoke, for those whose role may remove (`remover` is null otherwise). */
function RemoveButton({ remover, ...props }: RemoveProps & { remover: Remover }) {
  return remover ? <RemoveOffered remover={remover} {...props} /> : null;
}

function RemoveOffered({
  entry,
  label,
  title,
  description,
  remover,
  intent = "remove",
}: RemoveProps & { remover: NonNullable<Remover> }) {
  const busy = remover.state !== "idle" && remover.formData?.get("id") === entry._id;
  const button = (type: "button" | "submit") => (
    <Button
      type={type}
      size="sm"
      variant="outline"
      disabled={busy}
      aria-label={`${label} ${entry.name ?? entry.address}`}
      className="text-destructive hover:text-destructive"
    >
      <UserMinus className="size-4" aria-hidden /> {busy ? "Working..." : label}
    </Button>
  );
  return (
    <ConfirmedSubmit
      button={button}
      fields={{ intent, id: entry._id }}
      submit={(fields) => remover.submit(fields, { method: "post" })}
      title={title}
      description={description}
      confirmLabel={label}
    />
  );
}
