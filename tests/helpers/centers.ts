import { centers } from "../../server/db/schema/index.ts";
import type { TestApp } from "./app.ts";

let n = 0;
/** An institute with an active plan, owned by `ownerId`, on `{slug}.test`. */
export async function createCenter(
  t: TestApp,
  ownerId: string | null,
  overrides: Partial<typeof centers.$inferInsert> = {},
) {
  n += 1;
  const slug = overrides.slug ?? `inst-${Date.now().toString(36)}-${n}`;
  const [row] = await t.database.db
    .insert(centers)
    .values({
      slug,
      instituteName: `Institute ${n}`,
      customDomain: `${slug}.test`,
      ownerId,
      planName: "3 Year Plan",
      billing: "yearly",
      status: "active",
      expiresAt: new Date(Date.now() + 30 * 86_400_000),
      ...overrides,
    })
    .returning();
  t.services.tenants.changed();
  return row;
}
