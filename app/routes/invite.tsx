import { data, Form, redirect, useNavigation } from "react-router";
import { CircleCheck, MailOpen } from "lucide-react";
import type { Route } from "./+types/invite";
import { getRequestContext } from "~/lib/context.server";
import { endWebSession, getViewer } from "~/lib/session.server";
import { tryService } from "~/lib/actions.server";
import { flashToastCookie } from "~/lib/toast.server";
import { formatDate } from "#common/format.ts";
import {
  INVITE_NOT_FOUND,
  INVITE_USED,
  inviteCreatorsOnly,
  inviteExpired,
  inviteForAnother,
  inviteWithdrawn,
} from "#common/validation/team.ts";
import { Button, ButtonLink } from "~/components/ui/button";
import { CardPage } from "~/components/shell/card-page";
import { CardProblem } from "~/components/shell/card-problem";

export const meta: Route.MetaFunction = ({ loaderData: d }) => [
  { title: d?.invitation ? `Join ${d.invitation.instituteName}'s team | Pathshala` : "Team invitation | Pathshala" },
  { name: "robots", content: "noindex" },
  // The link is the invitation: it is never sent on to another site.
  { name: "referrer", content: "no-referrer" },
];

const backHere = (token: string) => encodeURIComponent(`/invite/${token}`);

/** An invitation link (issue 26): who invited which address to which institute, and what the visitor can do with it. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { services } = getRequestContext(context);
  const viewer = getViewer(context);
  const found = await tryService(() => services.team.preview(params.token));
  const signedIn = viewer ? { name: viewer.name, email: viewer.email, role: viewer.role } : null;
  if (!found.ok)
    return data(
      { token: params.token, invitation: null, viewer: signedIn, mine: false, holdsAddress: false },
      { status: 404 },
    );
  const { memberId, ...invitation } = found.value;
  return {
    token: params.token,
    invitation,
    viewer: signedIn,
    mine: Boolean(viewer && memberId === viewer.id),
    // Whether the signed-in account has the address it was sent to (a mobile number only once verified).
    holdsAddress: viewer ? await services.members.holdsAddress(viewer, invitation) : false,
  };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const { services } = getRequestContext(context);
  const viewer = getViewer(context);
  const form = await request.formData();
  if (form.get("intent") === "switch-account") {
    // Signed in with another address: sign out, then sign in as the invited creator and come back.
    const cookie = viewer ? await endWebSession(context) : null;
    return redirect(
      `/auth?role=creator&mode=login&redirectTo=${backHere(params.token)}`,
      cookie ? { headers: { "Set-Cookie": cookie } } : undefined,
    );
  }
  if (!viewer) return redirect(`/auth?role=creator&mode=login&redirectTo=${backHere(params.token)}`);
  const result = await tryService(() => services.team.accept(viewer, params.token));
  if (!result.ok) return result.response;
  const { center, role } = result.value;
  const toast =
    role === "creator"
      ? {
          to: "/creator/contents",
          title: `You joined ${center.instituteName}'s team`,
          description: "You can now assign your content to it from My Contents.",
        }
      : {
          // Teachers work in the creator area's Tests; staff in the business area, on this institute (decision 0039).
          to: role === "teacher" ? "/creator/tests" : `/business?center=${center.id}`,
          title: `You joined ${center.instituteName} as ${role === "staff" ? "staff" : `a ${role}`}`,
          description: "Switch to it from the header whenever you work for it.",
        };
  return redirect(toast.to, {
    headers: {
      "Set-Cookie": flashToastCookie({ kind: "success", title: toast.title, description: toast.description }),
    },
  });
}

type Invitation = NonNullable<Route.ComponentProps["loaderData"]["invitation"]>;
type Viewer = Route.ComponentProps["loaderData"]["viewer"];

export default function InvitePage({ loaderData, actionData }: Route.ComponentProps) {
  const { invitation, viewer, token, mine, holdsAddress } = loaderData;
  return (
    <CardPage wide>
      {invitation ? (
        <InvitationBody
          invitation={invitation}
          viewer={viewer}
          token={token}
          mine={mine}
          holdsAddress={holdsAddress}
          error={actionData && !actionData.ok ? actionData.error : null}
        />
      ) : (
        <CardProblem title="Invitation not found" text={INVITE_NOT_FOUND} />
      )}
    </CardPage>
  );
}

function InvitationBody({
  invitation,
  viewer,
  token,
  mine,
  holdsAddress,
  error,
}: {
  invitation: Invitation;
  viewer: Viewer;
  token: string;
  mine: boolean;
  holdsAddress: boolean;
  error: string | null;
}) {
  const navigation = useNavigation();
  const accepting = navigation.state !== "idle" && navigation.formData?.get("intent") === "accept";
  const { instituteName, invitedBy, state, expiresAt, role } = invitation;
  // Where it was sent: an e-mail address, or a mobile number.
  const sentTo = invitation.phone ?? invitation.email;
  const needsCreatorAccount = role === "creator" || role === "teacher";
  const header = (
    <>
      <div className="mb-4 grid size-12 place-items-center rounded-full bg-primary/10 text-primary">
        <MailOpen className="size-6" aria-hidden />
      </div>
      <p className="text-sm font-medium text-primary">Team invitation</p>
      <h1 className="mt-1 text-2xl font-semibold tracking-tight">Join {instituteName}'s team</h1>
      <p className="mt-3 text-muted-foreground">
        {invitedBy ? <strong className="font-medium text-foreground">{invitedBy}</strong> : "The institute"} invited{" "}
        <strong className="font-medium text-foreground">{sentTo}</strong>{" "}
        {role === "creator"
          ? `to put classes and materials on ${instituteName}'s website.`
          : role === "teacher"
            ? `to teach with ${instituteName} as a teacher: its tests, question bank and results.`
            : `to join ${instituteName} as staff.`}
      </p>
    </>
  );

  if (state === "withdrawn") return <CardProblem title="Invitation withdrawn" text={inviteWithdrawn(instituteName)} />;
  if (state === "accepted") {
    return mine ? (
      <Done instituteName={instituteName} />
    ) : (
      <CardProblem title="Invitation already used" text={INVITE_USED} />
    );
  }
  if (state === "expired") return <CardProblem title="Invitation expired" text={inviteExpired(instituteName)} />;

  const signInLink = `/auth?role=creator&mode=login&redirectTo=${backHere(token)}`;
  const registerLink = `/auth?role=creator&mode=register&redirectTo=${backHere(token)}`;
  return (
    <div>
      {header}
      {expiresAt && (
        <p className="mt-2 text-sm text-muted-foreground">This link works until {formatDate(expiresAt)}.</p>
      )}
      <div className="mt-6 grid gap-3">
        {!viewer ? (
          <>
            <p className="text-sm">
              {invitation.phone
                ? `Sign in with the creator account that has verified ${sentTo} to accept. New here? Create a creator account, then add and verify that number on its Account page.`
                : `Sign in with the creator account for ${sentTo} to accept. New here? Create a creator account with that address.`}
            </p>
            <div className="flex flex-wrap gap-2">
              <ButtonLink to={signInLink}>Sign in to accept</ButtonLink>
              <ButtonLink to={registerLink} variant="outline">
                Create a creator account
              </ButtonLink>
            </div>
          </>
        ) : !holdsAddress ? (
          <>
            <Notice text={`You are signed in as ${viewer.email}. ${inviteForAnother(sentTo)}`} />
            <Form method="post">
              <input type="hidden" name="intent" value="switch-account" />
              <Button type="submit" variant="outline">
                Sign in with another account
              </Button>
            </Form>
          </>
        ) : needsCreatorAccount && viewer.role !== "creator" ? (
          <Notice text={inviteCreatorsOnly(sentTo, viewer.role, role)} />
        ) : (
          <Form method="post" className="grid gap-3">
            <input type="hidden" name="intent" value="accept" />
            <p className="text-sm">
              You are signed in as <strong>{viewer.name}</strong> ({viewer.email}).{" "}
              {role === "creator"
                ? `Once you accept, you can assign your content to ${instituteName} and it appears on its website.`
                : `Once you accept, you are ${role === "staff" ? "staff" : `a ${role}`} at ${instituteName}.`}
            </p>
            {error && <Notice text={error} />}
            <div>
              <Button type="submit" size="lg" disabled={accepting}>
                {accepting ? "Accepting..." : "Accept invitation"}
              </Button>
            </div>
          </Form>
        )}
      </div>
    </div>
  );
}

function Done({ instituteName }: { instituteName: string }) {
  return (
    <div className="text-center">
      <CircleCheck className="mx-auto size-10 text-success" aria-hidden />
      <h1 className="mt-3 text-2xl font-semibold tracking-tight">You are on {instituteName}'s team</h1>
      <p className="mt-2 text-muted-foreground">Assign your content to {instituteName} from My Contents.</p>
      <ButtonLink to="/creator/contents" className="mt-6">
        Go to My Contents
      </ButtonLink>
    </div>
  );
}

function Notice({ text }: { text: string }) {
  return (
    <p role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
      {text}
    </p>
  );
}
