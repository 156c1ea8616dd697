import { eq } from "drizzle-orm";
import { memberships, users } from "../../server/db/schema/index.ts";
import type { TestApp } from "./app.ts";

/**
 * Makes `creatorId` an accepted member of the institute's team, as accepting an invitation does
 * (tests that are not about teams use it before assigning content to an institute).
 */
export async function joinTeam(t: TestApp, centerId: string, creatorId: string): Promise<void> {
  const [creator] = await t.database.db.select({ email: users.email }).from(users).where(eq(users.id, creatorId));
  await t.database.db
    .insert(memberships)
    .values({
      centerId,
      email: creator.email,
      userId: creatorId,
      role: "creator",
      status: "active",
      acceptedAt: new Date(),
    })
    .onConflictDoNothing();
}
