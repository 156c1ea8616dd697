import type { Context } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../middleware/types.ts";
import type { Db } from "../db/types.ts";
import type { Services } from "../services/index.ts";
import type { Reader } from "../services/content-access.ts";
import type { Site } from "../services/tenants.ts";
import { creatorDesk, deskOf } from "./creator-desk.ts";
import { BankSchema } from "#common/mock-tests/test-input.ts";

/** The bank is for those who write tests: creators, teachers and institute owners. */
export const TEAM_ONLY = {
  403: "Not a creator or institute owner account, or the role held in the institute chosen in the header does not allow tests.write",
};

/**
 * Who writes to a question bank: at the institute chosen in the header, whoever the policy lets
 * write tests there (tests.write: owners, creators, teachers); without one, creators and owners.
 */
export const writers = (services: Services, db: Db) =>
  creatorDesk(services, db, "tests.write", ["creator", "business"]);

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

/** Who builds tests and series and reads their results: the team (tests.write, at the desk chosen), and admins. */
export const builders = (services: Services, db: Db) => creatorDesk(services, db, "tests.write");

/**
 * One list answered two ways: a creator, owner or admin sees their team's (drafts too; at the
 * institute chosen in the header, that one's alone); a student or visitor sees what this site
 * offers them. Personal, so never kept by a cache.
 */
export async function teamOrSite<T>(
  c: Context<AppEnv>,
  services: Services,
  forTeam: (reader: Reader) => Promise<T>,
  forSite: (user: NonNullable<AppEnv["Variables"]["auth"]>["user"] | null, site: Site) => Promise<T>,
): Promise<T> {
  c.header("Cache-Control", "no-store");
  const user = c.get("auth")?.user ?? null;
  return user && user.role !== "student" ? forTeam(await deskOf(c, services, user)) : forSite(user, c.get("site"));
}
