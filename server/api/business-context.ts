import type { Context } from "hono";
import type { AppEnv } from "../http/types.ts";
import type { Services } from "../services/index.ts";
import { HttpError } from "../http/errors.ts";
import { requireRole } from "./guards.ts";

export const NO_SUBSCRIPTION = "No active subscription found.";

/** The business caller and the institute they act on (their pick via `centerId`, else their newest). */
export async function requireBusinessCenter(c: Context<AppEnv>, services: Services, centerId?: string | null) {
  const { user } = requireRole(c, "business");
  const center = await services.business.currentCenter(user.id, c.get("site"), centerId);
  if (!center) throw new HttpError(404, NO_SUBSCRIPTION);
  return { user, center };
}
