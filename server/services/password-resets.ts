import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { passwordResets, users } from "../db/schema/index.ts";
import type { Db, DbOrTx } from "../db/types.ts";
import { hashPassword } from "../auth/password.ts";
import { isCommonPassword } from "../auth/common-passwords.ts";
import { generateToken, hashToken } from "../auth/tokens.ts";
import type { SessionStore, ValidSession } from "../auth/sessions.ts";
import { HttpError, parseWith } from "../http/errors.ts";
import {
  ChangePasswordSchema,
  ForgotPasswordSchema,
  RESET_TEXTS,
  ResetPasswordSchema,
} from "#common/validation/account-security.ts";
import { RATE_RULES, type RateLimiter } from "./rate-limit.ts";
import { COMMON_PASSWORD, tooMany, type AccountService } from "./accounts.ts";
import type { MessageService } from "../messages/service.ts";

const RESET_LINK_MINUTES = 30;

/**
 * Forgotten passwords: a single-use link, valid 30 minutes, sent by e-mail; only its SHA-256 is
 * stored. Asking always answers the same, whether or not an account uses the address.
 */
export class PasswordResetService {
  private readonly deps: {
    db: Db;
    accounts: AccountService;
    sessions: SessionStore;
    messages: MessageService;
    rateLimiter: RateLimiter;
  };

  constructor(deps: PasswordResetService["deps"]) {
    this.deps = deps;
  }

  /**
   * Sends a reset link to the account's address, on the site it was asked from (`origin`, one of
   * ours: the tenant lookup has already refused any other host). An account asked for too often
   * gets no more links for a while, with the same answer, so the answer tells nothing.
   */
  async request(input: unknown, meta: { ip: string; origin: string; centerId?: string }): Promise<void> {
    const { email } = parseWith(ForgotPasswordSchema, input);
    const byIp = await this.deps.rateLimiter.hit(RATE_RULES.forgotIp, meta.ip);
    if (!byIp.allowed) throw tooMany(byIp.retryAfter);
    const user = await this.deps.accounts.findByEmail(email);
    if (!user) return;
    if (!(await this.deps.rateLimiter.hit(RATE_RULES.forgotAccount, user.id)).allowed) return;
    const token = generateToken();
    await this.deps.db.transaction(async (tx) => {
      await tx.insert(passwordResets).values({
        id: hashToken(token),
        userId: user.id,
        expiresAt: new Date(Date.now() + RESET_LINK_MINUTES * 60_000),
      });
      await this.deps.messages.send(tx, {
        template: "password-reset",
        values: { name: user.name, link: `${meta.origin}/reset-password?token=${token}` },
        to: { email: user.email, userId: user.id },
        centerId: meta.centerId ?? null,
      });
    });
  }

  /** Sets the new password from a valid link, spends every open link of the account, and signs it out everywhere. */
  async reset(
    input: unknown,
    meta?: { origin: string; centerId?: string },
  ): Promise<{ role: (typeof users.$inferSelect)["role"] }> {
    const { token, password } = parseWith(ResetPasswordSchema, input);
    const passwordHash = await hashNewPassword(password);
    const changed = await this.deps.db.transaction(async (tx) => {
      const [link] = await tx
        .update(passwordResets)
        .set({ usedAt: sql`now()` })
        .where(
          and(
            eq(passwordResets.id, hashToken(token)),
            isNull(passwordResets.usedAt),
            gt(passwordResets.expiresAt, sql`now()`),
          ),
        )
        .returning({ userId: passwordResets.userId });
      if (!link) throw new HttpError(400, RESET_TEXTS.invalid);
      const [user] = await tx
        .update(users)
        .set({ passwordHash, updatedAt: sql`now()` })
        .where(eq(users.id, link.userId))
        .returning({ role: users.role, name: users.name, email: users.email, id: users.id });
      if (meta) await this.changed(tx, user, meta);
      await tx
        .update(passwordResets)
        .set({ usedAt: sql`now()` })
        .where(and(eq(passwordResets.userId, link.userId), isNull(passwordResets.usedAt)));
      return { userId: link.userId, role: user.role };
    });
    await this.deps.sessions.revokeAllForUser(changed.userId);
    return { role: changed.role };
  }

  /**
   * A signed-in person's new password, given their current one (counted like sign-in attempts,
   * so it cannot be guessed this way); every other session of theirs is signed out.
   */
  async change(
    user: { id: string; email: string },
    session: Pick<ValidSession, "id" | "familyId">,
    input: unknown,
    meta: { origin: string; centerId?: string },
  ): Promise<void> {
    const { currentPassword, password } = parseWith(ChangePasswordSchema, input);
    const row = await this.deps.accounts.confirmPassword(user, currentPassword);
    const passwordHash = await hashNewPassword(password);
    await this.deps.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ passwordHash, updatedAt: sql`now()` })
        .where(eq(users.id, user.id));
      await this.changed(tx, row, meta);
    });
    await this.deps.sessions.revokeAllForUser(user.id, session);
  }

  /** Tells the account its password changed, with the way back if it was not them. */
  private changed(
    tx: DbOrTx,
    user: { id: string; name: string; email: string },
    meta: { origin: string; centerId?: string },
  ) {
    return this.deps.messages.send(tx, {
      template: "password-changed",
      values: { name: user.name, link: `${meta.origin}/forgot-password` },
      to: { email: user.email, userId: user.id },
      centerId: meta.centerId ?? null,
    });
  }
}

/** A new password's hash, once it is not one of the common ones. */
async function hashNewPassword(password: string): Promise<string> {
  if (isCommonPassword(password)) throw new HttpError(400, COMMON_PASSWORD);
  return hashPassword(password);
}
