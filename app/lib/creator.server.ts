import { data, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { HttpError } from "../../server/http/errors.ts";
import type { Reader } from "../../server/services/content-access.ts";
import { can, notAllowed } from "../../server/auth/permissions.ts";
import { WITHOUT_A_DESK } from "../../server/api/creator-desk.ts";
import { deskAmong } from "../../server/services/members.ts";
import { readCookie } from "../../server/auth/cookies.ts";
import { CHOSEN_MEMBERSHIP_COOKIE, type Action } from "#common/memberships.ts";
import { getRequestContext } from "./context.server";
import { getViewer, requireViewer } from "./session.server";
import { pageUrl } from "./page-url";
import { refusedCreatorAction } from "./creator-pages";

export { toContentJson } from "../../server/services/content.ts";
export { linkIfAllowed } from "../../server/api/content.ts";

type Ctx = Readonly<RouterContextProvider>;

/** The institute chosen in the header's role switcher (`pathshala_as`), checked against the person's roles where used. */
function headerChoice(request: Request): string | null {
  return readCookie(request.headers.get("cookie"), CHOSEN_MEMBERSHIP_COOKIE)?.split(":")[0] || null;
}

/**
 * The creator area's person and the institute they work on, its "desk" (issue 40, decision
 * 0039; the same as the API's `requireCreatorDesk`): the one chosen in the header while they
 * hold a role there that the area is for (owner, creator, teacher), else none for a creator
 * account (their own work, as before), else the first such institute. `may` is the policy's answer
 * for that institute (without one, the account's: WITHOUT_A_DESK), and the page being opened
 * (creator-pages.ts) must be one it allows, else 403 in the policy's words. `creator` is the
 * reader the services hold to the desk.
 */
export async function loadCreatorDesk(context: Ctx, request: Request): Promise<CreatorDesk> {
  const { refused, ...desk } = await deskOfRequest(context, request);
  if (refused) throw data(notAllowed(refused), { status: 403 });
  return desk;
}

type CreatorDesk = Omit<Awaited<ReturnType<typeof findCreatorDesk>>, "refused" | "entitled">;

/**
 * The area's middleware, its layout and the page each ask: worked out once per reading request
 * (after an action, the loaders ask again: the action may have changed the roles).
 */
function deskOfRequest(context: Ctx, request: Request): ReturnType<typeof findCreatorDesk> {
  if (request.method !== "GET" && request.method !== "HEAD") return findCreatorDesk(context, request);
  let found = desksOfRequests.get(context);
  if (!found) desksOfRequests.set(context, (found = findCreatorDesk(context, request)));
  return found;
}

const desksOfRequests = new WeakMap<Ctx, ReturnType<typeof findCreatorDesk>>();

async function findCreatorDesk(context: Ctx, request: Request) {
  const viewer = getViewer(context)!;
  const { services, site } = getRequestContext(context);
  const desks = await services.members.creatorDesks(viewer.id);
  const centerId = deskAmong(desks, viewer, site, headerChoice(request));
  const membership = centerId ? await services.members.standing(viewer.id, centerId) : null;
  const may = (action: Action): boolean =>
    centerId
      ? can(membership, action)
      : action in WITHOUT_A_DESK && WITHOUT_A_DESK[action as keyof typeof WITHOUT_A_DESK].includes(viewer.role);
  const creator: Reader = centerId
    ? { id: viewer.id, role: viewer.role, desk: centerId }
    : { id: viewer.id, role: viewer.role };
  return {
    viewer,
    services,
    site,
    creator,
    may,
    desk: centerId && membership ? { id: centerId, name: membership.instituteName } : null,
    /** Whether the area is theirs at all: a creator account, or a role in an institute the area is for. */
    entitled: viewer.role === "creator" || desks.length > 0,
    /** The page's action the policy refuses them at this desk (creator-pages.ts), if any. */
    refused: refusedCreatorAction(pageUrl(request).pathname, may),
  };
}

/**
 * The creator area's gate (its layout's middleware): open to creator accounts and to whoever holds
 * a role in an institute that the area is for (an owner, a creator, a teacher); everyone else goes
 * to the creator sign-in. Then `loadCreatorDesk`'s checks of the page.
 */
export const creatorArea: MiddlewareFunction<Response> = async ({ context, request }) => {
  if (!getViewer(context) || !(await deskOfRequest(context, request)).entitled)
    requireViewer(context, request, ["creator"]);
  await loadCreatorDesk(context, request);
};

/** The creator studio's services and the person as the services know them (their desk: `loadCreatorDesk`). */
export async function creatorContext(
  context: Ctx,
  request: Request,
): Promise<{ services: ReturnType<typeof getRequestContext>["services"]; creator: Reader }> {
  const { services, creator } = await loadCreatorDesk(context, request);
  return { services, creator };
}

export type ActionResult<T = Record<string, never>> = ({ ok: true } & T) | { ok: false; error: string };

/** Runs a page action; the service's HttpErrors (the product's words) come back as `{ ok: false, error }` with their status. */
export async function tryAction<T extends object>(run: () => Promise<T>) {
  try {
    return { ok: true as const, ...(await run()) };
  } catch (error) {
    if (error instanceof HttpError) return data({ ok: false as const, error: error.message }, { status: error.status });
    throw error;
  }
}

/** A loader's 404/403 from the service becomes the matching error response (rendered by the error boundary). */
export async function orRespond<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HttpError) throw data({ message: error.message }, { status: error.status });
    throw error;
  }
}
