import { eq } from "drizzle-orm";
import * as v from "valibot";
import { users } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import { hashPassword } from "../auth/password.ts";
import { SessionStore } from "../auth/sessions.ts";
import { isCommonPassword } from "../auth/common-passwords.ts";
import { emailSchema, passwordSchema } from "#common/validation/account.ts";

const AdminInput = v.object({
  email: emailSchema,
  password: v.pipe(
    passwordSchema,
    v.check((p) => !isCommonPassword(p), "This password is too common. Please choose another."),
  ),
  name: v.optional(v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(100)), "Administrator"),
});

/** Creates an admin, or promotes the account with that email (setting the given password). */
export async function createOrPromoteAdmin(
  db: Db,
  input: { email: string; password: string; name?: string },
): Promise<{ created: boolean; email: string; id: string }> {
  const parsed = v.safeParse(AdminInput, input);
  if (!parsed.success) throw new Error(parsed.issues[0].message);
  const { email, password, name } = parsed.output;
  const passwordHash = await hashPassword(password);
  return db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).for("update");
    if (existing) {
      await tx
        .update(users)
        .set({ role: "admin", passwordHash, updatedAt: new Date(), ...(input.name ? { name } : {}) })
        .where(eq(users.id, existing.id));
      // A new role and password: sessions made under the old ones end.
      await new SessionStore(tx as unknown as Db).revokeAllForUser(existing.id);
      return { created: false, email, id: existing.id };
    }
    const [row] = await tx
      .insert(users)
      .values({ email, name, passwordHash, role: "admin" })
      .returning({ id: users.id });
    return { created: true, email, id: row.id };
  });
}
