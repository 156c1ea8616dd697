import type { Context } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../middleware/types.ts";
import type { SessionUser } from "../auth/sessions.ts";
import type { Site } from "../services/tenants.ts";
import { allow } from "./guards.ts";
import { BankSchema } from "#common/mock-tests/test-input.ts";

/** The bank is for those who write tests: creators and institute owners. */
export const TEAM_ONLY = { 403: "Not a creator or institute owner account" };

/** Who writes to a question bank: creators and institute owners. */
export const WRITERS = allow("creator", "business");

export const bankParam = v.optional(
  v.pipe(
    BankSchema,
    v.description(
      "Which bank: \"own\" (the caller's own questions) or an institute's id (its bank); on an institute's domain only its bank",
    ),
  ),
);

/** ?bank where a question is written, a file imported or an image uploaded (by default: on an institute's domain its bank, else the caller's own). */
export const BankQuery = v.object({ bank: bankParam });

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
