import { Hono, type Context } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { jsonBody, notFound } from "../http/errors.ts";
import { input, operation } from "./openapi.ts";
import { allow, requireAuth } from "./guards.ts";
import { requireBusinessCenter } from "./business-context.ts";
import type { Db } from "../db/types.ts";
import type { Action } from "#common/memberships.ts";
import type { Services } from "../services/index.ts";
import { AcceptInput, InviteInput, VisibilityInput } from "#common/validation/team.ts";

const INSTITUTE_NOT_FOUND = "Institute not found";
const CENTER_QUERY = { centerId: "which of your institutes (default: your newest)" };
const OWNER_DENIED = {
  403: "Not a business, or another owner's institute on its domain",
  404: "No institute (or not yours)",
};

/**
 * The owner or staff member and the institute asked for: their pick (one where they work not is a
 * 404, never a fallback), else the one chosen in the header, else their newest; what they may do
 * there is the policy's (server/auth/permissions.ts) `action`.
 */
async function owner(c: Context<AppEnv>, services: Services, db: Db, action: Action) {
  const centerId = c.req.query("centerId");
  const found = await requireBusinessCenter(c, services, db, action, centerId);
  if (centerId && found.center.id !== centerId) throw notFound(INSTITUTE_NOT_FOUND);
  return found;
}
const businessJson = (center: { id: string; instituteName: string }) => ({
  _id: center.id,
  name: center.instituteName,
});

/** The owner's team (invite, list, remove) and the invitation links creators accept. */
export function teamRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  const db = database.db;

  api.get(
    "/",
    operation({
      tag: "team",
      auth: "business",
      summary: "The institute's team: pending invitations, members and removed ones",
      query: CENTER_QUERY,
      responses: {
        200: "{business: {_id, name}, team: [{_id, address (the e-mail address, or the mobile number an invitation went to until accepted), status, expired, name, invitedBy, invitedAt, acceptedAt, removedAt, expiresAt, joinedBeforeTeams}]}",
        ...OWNER_DENIED,
      },
    }),
    async (c) => {
      const { center } = await owner(c, services, db, "members.view");
      return c.json({ business: businessJson(center), team: await services.team.list(center.id) });
    },
  );

  api.post(
    "/invitations",
    operation({
      tag: "team",
      auth: "business",
      summary:
        "Invite a creator by e-mail ({email}) or mobile number ({phone}); answers the link to share (inviting a pending address again makes a fresh link)",
      query: CENTER_QUERY,
      body: InviteInput,
      responses: {
        201: "{invitation, link} (new)",
        200: "{invitation, link, renewed: true} (fresh link for a pending invitation)",
        400: "Invalid e-mail or mobile number, or your own",
        ...OWNER_DENIED,
        409: "Already on the team",
        429: "Too many invitations",
      },
    }),
    async (c) => {
      const { user, center } = await owner(c, services, db, "members.invite");
      const body = await jsonBody(c);
      const { entry, link, renewed } = await services.team.invite(user, center, body);
      return c.json(renewed ? { invitation: entry, link, renewed } : { invitation: entry, link }, renewed ? 200 : 201);
    },
  );

  api.get(
    "/invitations/:token",
    operation({
      tag: "team",
      auth: "public",
      summary: "What an invitation link shows: institute, who invited, the address, and whether it can be accepted",
      responses: {
        200: "{invitation: {instituteName, invitedBy, email ('' when sent to a mobile number), phone (E.164, or null), role, state (open, accepted, withdrawn or expired), expiresAt}}",
        404: "Not a valid invitation link",
      },
    }),
    async (c) => {
      const { memberId: _member, ...invitation } = await services.team.preview(c.req.param("token"));
      return c.json({ invitation });
    },
  );

  api.post(
    "/accept",
    operation({
      tag: "team",
      auth: "signed-in",
      summary: "Accept an invitation as the creator account with the invited address",
      responses: {
        200: "{success, alreadyMember, business: {_id, name}}",
        400: "No token",
        403: "Another address, or not a creator account",
        404: "Not a valid invitation link",
        409: "Already accepted by another account",
        410: "Expired or withdrawn",
      },
    }),
    allow(),
    input("json", AcceptInput),
    async (c) => {
      const { user } = requireAuth(c);
      const { token } = c.req.valid("json");
      const { center, alreadyMember } = await services.team.accept(user, token);
      return c.json({ success: true, alreadyMember, business: businessJson(center) });
    },
  );

  api.delete(
    "/:id",
    operation({
      tag: "team",
      auth: "business",
      summary: "Revoke an invitation or remove a member (their content leaves the institute's site at once)",
      query: CENTER_QUERY,
      responses: { 200: "{member}", ...OWNER_DENIED, 404: "Not on this institute's team" },
    }),
    async (c) => {
      const { center } = await owner(c, services, db, "members.remove");
      return c.json({ member: await services.team.remove(center.id, c.req.param("id")) });
    },
  );

  return api;
}

/** The owner's view of what is on their institute's site, and the Hide/Show switch. */
export function siteContentsRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  const db = database.db;

  api.get(
    "/",
    operation({
      tag: "team",
      auth: "business",
      summary: "Every item assigned to the institute, with whether its site shows it",
      query: CENTER_QUERY,
      responses: {
        200: "{contents: [{_id, title, type, price, creatorName, creatorEmail, isActive, hidden, onTeam, shown, createdAt}]}",
        ...OWNER_DENIED,
      },
    }),
    async (c) => {
      const { center } = await owner(c, services, db, "site.edit");
      return c.json({ contents: await services.team.siteItems(center.id) });
    },
  );

  api.put(
    "/:id",
    operation({
      tag: "team",
      auth: "business",
      summary: "Hide an item from the institute's site, or show it again",
      query: CENTER_QUERY,
      body: VisibilityInput,
      responses: { 200: "{content}", 400: "Invalid input", ...OWNER_DENIED, 404: "Not on this institute's site" },
    }),
    async (c) => {
      const { user, center } = await owner(c, services, db, "site.edit");
      const body = await jsonBody(c);
      return c.json({ content: await services.team.setHidden(user, center.id, c.req.param("id"), body) });
    },
  );

  return api;
}
