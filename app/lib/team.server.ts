import type { RouterContextProvider } from "react-router";
import { platformOrigin } from "../../server/services/team.ts";
import { getRequestContext } from "./context.server";

/** Where this request's invitation links point: the platform, as the visitor reaches it. */
export function invitationOrigin(context: Readonly<RouterContextProvider>, request: Request): string {
  const { site, secure, env } = getRequestContext(context);
  return platformOrigin({ url: request.url, secure, site }, env.PLATFORM_HOSTS);
}
