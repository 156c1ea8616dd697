import { centers } from "../../server/db/schema/index.ts";
import { connectSandboxAccount } from "../../server/payments/merchant-accounts.ts";
import { secretBoxFor } from "../../server/payments/secrets.ts";
import { newSandboxAccount, type SandboxAccount } from "../../server/payments/sandbox/accounts.ts";
import type { TestApp } from "./app.ts";

let n = 0;
/**
 * An institute with an active plan, owned by `ownerId`, on `{slug}.test`. It sells on its own
 * sandbox payment account (decision 0040), as an institute that connected one does, unless
 * `merchant: false` (then its paid items are not on sale).
 */
export async function createCenter(
  t: TestApp,
  ownerId: string | null,
  overrides: Partial<typeof centers.$inferInsert> = {},
  options: { merchant?: boolean } = {},
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
  const box = options.merchant === false ? null : secretBoxFor(t.env);
  if (box) {
    const account = newSandboxAccount();
    const merchantAccountId = await connectSandboxAccount(t.database.db, box, row.id, account);
    merchantAccounts.set(row.id, account);
    t.services.tenants.changed();
    return { ...row, merchantAccountId };
  }
  t.services.tenants.changed();
  return row;
}

/** Each test institute's sandbox account (its secrets are the sandbox's to know, and the test's). */
const merchantAccounts = new Map<string, SandboxAccount>();

/** The sandbox account an institute made by createCenter sells on. */
export function merchantOf(centerId: string): SandboxAccount {
  const account = merchantAccounts.get(centerId);
  if (!account) throw new Error(`institute ${centerId} has no sandbox account`);
  return account;
}
