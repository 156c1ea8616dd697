import { eq } from "drizzle-orm";
import { teamMembers, users } from "../../server/db/schema/index.ts";
import type { TestApp } from "./app.ts";

/**
 * Makes `creatorId` an accepted member of the institute's team, as accepting an invitation does
 * (tests that are not about teams use it before assigning content to an institute).
 */
export async function joinTeam(t: TestApp, centerId: string, creatorId: string): Promise<void> {
  const [creator] = await t.database.db.select({ email: users.email }).from(users).where(eq(users.id, creatorId));
  await t.database.db
    .insert(teamMembers)
    .values({ centerId, email: creator.email, memberId: creatorId, status: "accepted", acceptedAt: new Date() })
    .onConflictDoNothing();
}
