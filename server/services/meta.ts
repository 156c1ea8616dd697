import { eq } from "drizzle-orm";
import { appMeta } from "../db/schema/index.ts";
import type { DbOrTx } from "../db/types.ts";

export async function getMeta(db: DbOrTx, key: string): Promise<string | undefined> {
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, key));
  return row?.value;
}

export async function setMeta(db: DbOrTx, key: string, value: string): Promise<void> {
  await db
    .insert(appMeta)
    .values({ key, value })
    .onConflictDoUpdate({ target: appMeta.key, set: { value, updatedAt: new Date() } });
}

/** Stores `value` only if the key is unset; returns whichever value is stored afterwards. */
export async function ensureMeta(db: DbOrTx, key: string, value: () => string): Promise<string> {
  await db.insert(appMeta).values({ key, value: value() }).onConflictDoNothing();
  return (await getMeta(db, key))!;
}
