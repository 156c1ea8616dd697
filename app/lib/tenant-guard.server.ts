import { data, type MiddlewareFunction } from "react-router";
import { getRequestContext } from "./context.server.ts";
import { isTenantPath } from "#common/tenant-paths.ts";
import { pageUrl } from "./page-url";

/** Platform-only routes answer 404 on an institute's domain. */
export const tenantRouteGuard: MiddlewareFunction<Response> = ({ request, context }) => {
  const { site } = getRequestContext(context);
  if (site.kind !== "tenant") return;
  if (!isTenantPath(pageUrl(request).pathname)) throw data(null, { status: 404 });
};
