import { Hono, type Context } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { jsonBody, notFound } from "../http/errors.ts";
import { operation } from "./openapi.ts";
import { requireAuth } from "./guards.ts";
import { centerOnThisSite, requestCenterId } from "./member-guard.ts";
import { isUuid } from "#common/validation/ids.ts";
import { FamilyAnswerInput, ParentInviteInput } from "#common/validation/family.ts";
import { FAMILY_TEXTS } from "#common/family.ts";
import { toPublicUser } from "../services/accounts.ts";
import { requestMeta } from "../middleware/client-ip.ts";

const CHILD_404 = "Not one of the caller's children (another family's, an ended link, or no such link)";

/**
 * Parents and their children (issue 41, decision 0047): the institute (or the student) invites a
 * parent by mobile number, `/family/invitations/{token}` is the parent's side of that link (the
 * notice, a code to the invited number, the answer), and `/parent/children` is what a linked parent
 * reaches, always by the link's id. Attendance, timetable and fees are read through their own
 * routes (`/attendance?studentId=`, `/sessions`, `/fee-accounts?studentId=`), which let a linked parent in.
 */
export function familiesRouter({ services, env }: AppDeps) {
  const { families, familyInvitations } = services;
  const meta = (c: Context<AppEnv>) => requestMeta(c, env.TRUST_PROXY);

  const students = new Hono<AppEnv>();
  /** The institute a student's family is asked about: named (`centerId`), the site's, or the header's choice. */
  const centerOf = (c: Context<AppEnv>, named: unknown): string =>
    centerOnThisSite(
      c,
      typeof named === "string" && isUuid(named) ? named : requestCenterId(c),
      FAMILY_TEXTS.studentNotFound,
    );
  const studentIdOf = (c: Context<AppEnv>): string => {
    const id = c.req.param("id") ?? "";
    if (!isUuid(id)) throw notFound(FAMILY_TEXTS.studentNotFound);
    return id;
  };

  students.post(
    "/:id/parents",
    operation({
      tag: "families",
      auth: "signed-in",
      summary:
        "Invite a parent of a student (the student themself, or an institute's owner or staff): a link to the consent notice is sent on WhatsApp and by SMS to the parent's mobile number (limited per inviter, per number and per institute each day). The parent answers it signed in on that number; inviting a number again while its invitation waits sends a fresh link",
      body: ParentInviteInput,
      responses: {
        201: "{guardian: {_id, studentId, name, relation, phone, status, invitedAt, linkedAt, endedAt, expired}, link}",
        200: "{guardian, link, renewed: true}",
        400: "Bad input: no name, a relation other than mother, father or guardian, not a mobile number, or the student's own number",
        403: "Someone else's record, without a role that links families; or the caller is not a student of the institute",
        404: "No such student at the institute (or no institute named)",
        409: "The number is already linked to this student",
        429: "Too many invitations",
      },
    }),
    async (c) => {
      const { user } = requireAuth(c);
      const body = await jsonBody(c);
      const centerId = centerOf(c, (body as { centerId?: unknown } | null)?.centerId);
      const made = await familyInvitations.invite(user, centerId, studentIdOf(c), body);
      return made.renewed ? c.json({ ...made }, 200) : c.json({ guardian: made.guardian, link: made.link }, 201);
    },
  );

  students.get(
    "/:id/parents",
    operation({
      tag: "families",
      auth: "signed-in",
      summary:
        "A student's parents and invitations at the institute, newest first (the student themself, or its owners and staff)",
      query: { centerId: "The institute (default: the site's, or the header's choice)" },
      responses: {
        200: "{parents: [{_id, studentId, name, relation, phone, status (invited, active, declined, withdrawn, removed), invitedAt, linkedAt, endedAt, expired}]}",
        403: "Someone else's record, without a role that links families",
        404: "No institute named, or the caller holds no role there",
      },
    }),
    async (c) => {
      const { user } = requireAuth(c);
      const centerId = centerOf(c, c.req.query("centerId"));
      return c.json({ parents: await families.familyOf(user.id, centerId, studentIdOf(c)) });
    },
  );

  const parents = new Hono<AppEnv>();
  parents.delete(
    "/:id",
    operation({
      tag: "families",
      auth: "signed-in",
      summary: "End a parent's link to a student, or withdraw their invitation (owners and staff); kept as history",
      query: { centerId: "The institute (default: the site's, or the header's choice)" },
      responses: {
        200: "{guardian}",
        403: "A role that does not link families",
        404: "No such live link at the institute",
      },
    }),
    async (c) => {
      const { user } = requireAuth(c);
      const centerId = centerOf(c, c.req.query("centerId"));
      const id = c.req.param("id");
      if (!isUuid(id)) throw notFound(FAMILY_TEXTS.linkNotFound);
      return c.json({ guardian: await families.remove(user.id, centerId, id) });
    },
  );

  const invitations = new Hono<AppEnv>();
  invitations.get(
    "/:token",
    operation({
      tag: "families",
      auth: "public",
      summary:
        "What a parent's invitation link shows: the institute, the child's first name, the invited number (masked), whether it can still be answered, and the consent notice with its version",
      responses: {
        200: "{invitation: {institute, child, name, relation, phone, state (open, expired, answered, ended), notice: {version, text}}}",
        404: FAMILY_TEXTS.notFound,
      },
    }),
    async (c) => {
      const { centerId, ...invitation } = await familyInvitations.preview(c.req.param("token"));
      // The link leads to the institute's own site; elsewhere it is not there to be found.
      centerOnThisSite(c, centerId, FAMILY_TEXTS.notFound);
      return c.json({ invitation });
    },
  );

  invitations.post(
    "/:token/code",
    operation({
      tag: "families",
      auth: "public",
      summary:
        "Send a 6-digit code to the number the invitation was sent to (and only to it), on WhatsApp and by SMS, to answer without being signed in on that number (10 minutes, 5 tries; limited per number and network address)",
      responses: {
        200: "{success, message}",
        404: FAMILY_TEXTS.notFound,
        409: FAMILY_TEXTS.answered,
        410: "Expired or ended",
        429: "Rate limited",
      },
    }),
    async (c) => {
      const sent = await familyInvitations.sendCode(c.req.param("token"), meta(c));
      return c.json({ success: true, ...sent });
    },
  );

  invitations.post(
    "/:token/answer",
    operation({
      tag: "families",
      auth: "public",
      summary:
        "The parent's answer to the consent notice (granted or refused), recorded with the notice's words and version. Signed in on the invited number, nothing more is needed; otherwise the code sent to it, and to agree from a number no account holds, the new account's name and e-mail (a refusal makes no account). When the answering account is not the signed-in one, its tokens are returned",
      body: FamilyAnswerInput,
      responses: {
        200: "{guardian, message, user?, access_token?, refresh_token?}",
        400: "Bad input, no code when not signed in on the number, a wrong code, or no name and e-mail for a new account",
        403: "An admin account",
        404: FAMILY_TEXTS.notFound,
        409: `${FAMILY_TEXTS.answered}; ${FAMILY_TEXTS.noticeChanged}; or the e-mail belongs to another account`,
        410: "Expired or ended",
      },
    }),
    async (c) => {
      const viewer = c.get("auth")?.user ?? null;
      const answered = await familyInvitations.answer(c.req.param("token"), await jsonBody(c), viewer);
      const body = { guardian: answered.guardian, message: answered.message };
      const { parent } = answered;
      // A refusal by a number no account holds makes no account: nobody to sign in.
      if (!parent || viewer?.id === parent.id) return c.json(body);
      const tokens = await services.sessions.issueApiTokens(parent.id, c.get("site").host, meta(c));
      return c.json({ ...body, user: toPublicUser(parent), ...tokens });
    },
  );

  const children = new Hono<AppEnv>();
  const childOf = async (c: Context<AppEnv>) => {
    const { user } = requireAuth(c);
    const id = c.req.param("id") ?? "";
    if (!isUuid(id)) throw notFound(FAMILY_TEXTS.childNotFound);
    return { user, id, link: await families.child(user.id, id) };
  };

  children.get(
    "/",
    operation({
      tag: "families",
      auth: "signed-in",
      summary: "The caller's children, through their active links (on an institute's site, those there)",
      responses: { 200: "{children: [{_id (the link), studentId, name, centerId, institute, relation, linkedAt}]}" },
    }),
    async (c) => {
      const { user } = requireAuth(c);
      const site = c.get("site");
      return c.json({ children: await families.children(user.id, site.kind === "tenant" ? site.center.id : null) });
    },
  );

  children.get(
    "/:id/results",
    operation({
      tag: "families",
      auth: "signed-in",
      summary:
        "A child's submitted tests at their institute, newest first; the score and rank only once the institute releases results",
      responses: {
        200: "{results: [{attemptId, testId, title, submittedAt, score, rank}]}",
        404: CHILD_404,
      },
    }),
    async (c) => {
      const { link } = await childOf(c);
      return c.json({ results: await families.results(link) });
    },
  );

  children.get(
    "/:id/consents",
    operation({
      tag: "families",
      auth: "signed-in",
      summary: "What the caller answered for this child, and when, with the notice's words and version",
      responses: { 200: "{consents: [{_id, answer, noticeVersion, noticeText, at}]}", 404: CHILD_404 },
    }),
    async (c) => {
      const { user, id } = await childOf(c);
      return c.json({ consents: await families.consents(user.id, id) });
    },
  );

  children.get(
    "/:id/data",
    operation({
      tag: "families",
      auth: "signed-in",
      summary:
        "Everything Pathshala holds about the child at that institute, as one JSON file (a parent's data request): the account's details, batches, attendance, tests, fees and the consent record",
      responses: {
        200: { description: "The child's data", content: ["application/json"] },
        404: CHILD_404,
      },
    }),
    async (c) => {
      const { user, id } = await childOf(c);
      const data = await families.dataOf(user.id, id);
      c.header("Content-Disposition", `attachment; filename="pathshala-data-${id}.json"`);
      return c.json(data);
    },
  );

  children.post(
    "/:id/withdraw",
    operation({
      tag: "families",
      auth: "signed-in",
      summary:
        "Withdraw consent for this child: recorded, and at once the institute stops showing the caller the child's record and stops messaging them about the child",
      responses: { 200: "{guardian, message}", 404: CHILD_404 },
    }),
    async (c) => {
      const { user, id } = await childOf(c);
      return c.json(await families.withdraw(user.id, id));
    },
  );

  return { students, parents, invitations, children };
}
