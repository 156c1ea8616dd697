import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { jsonBody } from "../http/errors.ts";
import { operation } from "./openapi.ts";
import { allow, requireAuth } from "./guards.ts";
import { requireMember } from "./member-guard.ts";
import { MemberInviteInput } from "#common/validation/team.ts";

const MEMBER_DENIED = {
  403: "No role in this institute, or a role that does not allow this",
  404: "No such institute (or another institute's, on an institute's domain)",
};

/** `/api/centers/{id}/members`: an institute's people and invitations (issue 40, decision 0039). */
export function membersRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  const db = database.db;

  api.get(
    "/",
    operation({
      tag: "members",
      auth: "business",
      summary: "The institute's members and invitations, of one role or all (owners and staff)",
      query: { role: "owner, staff, teacher, creator, student or parent (default: every role)" },
      responses: {
        200: "{members: [{_id, role, duty, status (invited, active or removed), name, email, phone, invitedBy, invitedAt, acceptedAt, removedAt, expiresAt, expired}]}",
        ...MEMBER_DENIED,
      },
    }),
    requireMember(db, "members.view"),
    async (c) => {
      const membership = c.get("membership")!;
      return c.json({ members: await services.members.list(membership.centerId, c.req.query()) });
    },
  );

  api.post(
    "/",
    operation({
      tag: "members",
      auth: "business",
      summary:
        "Invite an e-mail address or a mobile number to a role (owners: staff, teachers, creators; staff: teachers, creators); the invitation is e-mailed with its link, or sent on WhatsApp and by SMS to the number. The number's account accepts it once it has verified that number",
      body: MemberInviteInput,
      responses: {
        201: "{invitation, link} (new)",
        200: "{invitation, link, renewed: true} (a fresh link for an open invitation)",
        400: "Invalid e-mail, mobile number or role; neither or both given; or your own address or number",
        403: "No role here, or a role you may not grant",
        404: MEMBER_DENIED[404],
        409: "The address or number already holds that role here",
        429: "Too many invitations",
      },
    }),
    requireMember(db, "members.invite"),
    async (c) => {
      const { user } = requireAuth(c);
      const membership = c.get("membership")!;
      const made = await services.members.inviteMember(user, membership, await jsonBody(c));
      const invitation = await services.members.one(membership.centerId, made.id);
      return made.renewed
        ? c.json({ invitation, link: made.link, renewed: true }, 200)
        : c.json({ invitation, link: made.link }, 201);
    },
  );

  api.delete(
    "/:memberId",
    operation({
      tag: "members",
      auth: "business",
      summary: "Withdraw an invitation or remove a member (kept as history; an institute keeps its last owner)",
      responses: {
        200: "{member}",
        ...MEMBER_DENIED,
        409: "The institute's last owner",
      },
    }),
    requireMember(db, "members.remove"),
    async (c) => {
      const membership = c.get("membership")!;
      return c.json({ member: await services.members.remove(membership.centerId, c.req.param("memberId")) });
    },
  );

  return api;
}

/** `/api/me`: the caller's own standing. */
export function meRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.get(
    "/memberships",
    operation({
      tag: "members",
      auth: "signed-in",
      summary: "Your roles, institute by institute (a platform admin's own role first, with centerId null)",
      responses: { 200: "{memberships: [{_id, centerId, institute, role, duty}]}" },
    }),
    allow(),
    async (c) => {
      const { user } = requireAuth(c);
      return c.json({ memberships: await services.members.mine(user) });
    },
  );
  return api;
}
