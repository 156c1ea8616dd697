import { data, Form, redirect, useNavigation } from "react-router";
import { Users } from "lucide-react";
import type { Route } from "./+types/family-invite";
import { getRequestContext } from "~/lib/context.server";
import { getViewer, startWebSession } from "~/lib/session.server";
import { tryService } from "~/lib/actions.server";
import { flashToastCookie } from "~/lib/toast.server";
import { FAMILY_TEXTS, RELATION_LABELS } from "#common/family.ts";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { OneTimeCodeField } from "~/components/auth-fields";
import { CardPage } from "~/components/shell/card-page";
import { CardProblem } from "~/components/shell/card-problem";

export const meta: Route.MetaFunction = ({ loaderData: d }) => [
  {
    title: d?.invitation ? `Follow ${d.invitation.child}'s classes | ${d.invitation.institute}` : "Parent's invitation",
  },
  { name: "robots", content: "noindex" },
  // The link is the invitation: it is never sent on to another site.
  { name: "referrer", content: "no-referrer" },
];

/**
 * A parent's invitation link (issue 41, decision 0047): the consent notice for their child, and
 * the answer. Signed in on the invited number, the parent answers at once; otherwise a code sent
 * to that number proves it (and, to agree from a number with no account, a name and e-mail make one).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { services, site } = getRequestContext(context);
  const viewer = getViewer(context);
  const found = await tryService(() => services.familyInvitations.preview(params.token));
  // On an institute's domain, another institute's invitation is not there to be found.
  if (!found.ok || (site.kind === "tenant" && site.center.id !== found.value.centerId))
    return data({ invitation: null, holdsNumber: false }, { status: 404 });
  const { centerId: _centerId, ...invitation } = found.value;
  return {
    invitation,
    holdsNumber: viewer ? await services.familyInvitations.heldBy(params.token, viewer.id) : false,
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const { services, meta } = getRequestContext(context);
  const viewer = getViewer(context);
  const form = await request.formData();
  if (form.get("intent") === "send-code") {
    const sent = await tryService(() => services.familyInvitations.sendCode(params.token, meta));
    if (!sent.ok) return sent.response;
    return { ok: true as const, codeSent: sent.value.message };
  }
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" && value.trim() !== "" ? value : undefined;
  };
  const answered = await tryService(() =>
    services.familyInvitations.answer(
      params.token,
      {
        answer: form.get("answer"),
        noticeVersion: form.get("noticeVersion"),
        code: text("code"),
        name: text("name"),
        email: text("email"),
      },
      viewer,
    ),
  );
  if (!answered.ok) return answered.response;
  const { guardian, parent, message } = answered.value;
  if (guardian.status !== "active") return { ok: true as const, refused: message };
  const headers = new Headers();
  if (parent && parent.id !== viewer?.id) headers.append("Set-Cookie", await startWebSession(context, parent, true));
  headers.append("Set-Cookie", flashToastCookie({ kind: "success", title: message }));
  return redirect("/parent", { headers });
}

type Invitation = NonNullable<Route.ComponentProps["loaderData"]["invitation"]>;

export default function FamilyInvitePage({ loaderData, actionData }: Route.ComponentProps) {
  const { invitation, holdsNumber } = loaderData;
  return (
    <CardPage wide institute={invitation?.institute}>
      {!invitation ? (
        <CardProblem title="Invitation not found" text={FAMILY_TEXTS.notFound} />
      ) : actionData && "refused" in actionData ? (
        <CardProblem done title="Your answer is recorded" text={actionData.refused ?? ""} />
      ) : (
        <InvitationBody
          invitation={invitation}
          holdsNumber={holdsNumber}
          codeSent={actionData && "codeSent" in actionData ? (actionData.codeSent ?? null) : null}
          error={actionData && !actionData.ok ? actionData.error : null}
        />
      )}
    </CardPage>
  );
}

function InvitationBody({
  invitation,
  holdsNumber,
  codeSent,
  error,
}: {
  invitation: Invitation;
  holdsNumber: boolean;
  codeSent: string | null;
  error: string | null;
}) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const { institute, child, name, relation, phone, state, notice } = invitation;
  if (state === "expired") return <CardProblem title="Invitation expired" text={FAMILY_TEXTS.expired} />;
  if (state === "answered") return <CardProblem title="Already answered" text={FAMILY_TEXTS.answered} />;
  if (state === "ended") return <CardProblem title="Invitation ended" text={FAMILY_TEXTS.ended} />;
  return (
    <div>
      <div className="mb-4 grid size-12 place-items-center rounded-full bg-primary/10 text-primary">
        <Users className="size-6" aria-hidden />
      </div>
      <p className="text-sm font-medium text-primary">
        {RELATION_LABELS[relation]}'s invitation · {name}
      </p>
      <h1 className="mt-1 text-2xl font-semibold tracking-tight">
        Follow {child}'s classes at {institute}
      </h1>
      <h2 className="mt-5 text-sm font-semibold">Consent notice</h2>
      <div className="mt-2 grid max-h-72 gap-3 overflow-y-auto rounded-md border bg-muted/40 p-4 text-sm leading-relaxed">
        {notice.text.split("\n\n").map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
      </div>
      {error && (
        <p role="alert" className="mt-4 rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
          {error}
        </p>
      )}
      {!holdsNumber && !codeSent ? (
        <Form method="post" className="mt-5 grid gap-3">
          <input type="hidden" name="intent" value="send-code" />
          <p className="text-sm">{FAMILY_TEXTS.signInWithNumber(phone)}</p>
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? "Sending..." : `Send a code to ${phone}`}
            </Button>
          </div>
        </Form>
      ) : (
        <Form method="post" className="mt-5 grid gap-4">
          <input type="hidden" name="noticeVersion" value={notice.version} />
          {!holdsNumber && (
            <>
              <p className="rounded-md bg-success/10 px-3 py-2 text-sm" role="status">
                {codeSent}
              </p>
              <OneTimeCodeField />
              <fieldset className="grid gap-3">
                <legend className="text-sm text-muted-foreground">
                  New to Pathshala on this number? To agree, give your name and e-mail and we make your parent's
                  account; you sign in with a code sent to your mobile.
                </legend>
                <Field label="Your name">
                  <Input name="name" autoComplete="name" defaultValue={name} />
                </Field>
                <Field label="E-mail">
                  <Input name="email" type="email" autoComplete="email" />
                </Field>
              </fieldset>
            </>
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" name="answer" value="granted" size="lg" disabled={busy}>
              I agree
            </Button>
            <Button type="submit" name="answer" value="refused" size="lg" variant="outline" disabled={busy}>
              I do not agree
            </Button>
          </div>
        </Form>
      )}
    </div>
  );
}
