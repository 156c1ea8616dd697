import type { Context } from "hono";
import type { AppEnv } from "../http/types.ts";
import type { SessionUser } from "../auth/sessions.ts";
import type { Site } from "../services/tenants.ts";
import { allow } from "./guards.ts";

/** The bank is for those who write tests: creators and institute owners. */
export const TEAM_ONLY = { 403: "Not a creator or institute owner account" };

/** Who builds tests and series and reads their results: the team, and admins. */
export const BUILDERS = allow("creator", "business", "admin");

/**
 * One list answered two ways: a creator, owner or admin sees their team's (drafts too); a student
 * or visitor sees what this site offers them. Personal, so never kept by a cache.
 */
export async function teamOrSite<T>(
  c: Context<AppEnv>,
  forTeam: (user: SessionUser) => Promise<T>,
  forSite: (user: SessionUser | null, site: Site) => Promise<T>,
): Promise<T> {
  c.header("Cache-Control", "no-store");
  const user = c.get("auth")?.user ?? null;
  return user && user.role !== "student" ? forTeam(user) : forSite(user, c.get("site"));
}
