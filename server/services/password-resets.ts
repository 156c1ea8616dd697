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
import type { SiteLinks } from "../messages/links.ts";
import type { AfterAnswer } from "./after-answer.ts";
import { accountHome, isHomeSite } from "./account-home.ts";
import { cancelPendingChanges } from "./recovery.ts";

const RESET_LINK_MINUTES = 30;

/** The site a request came to: an institute's id, or none for the platform. */
interface AskedOn {
  centerId?: string;
}

/**
 * Forgotten passwords: a single-use link, valid 30 minutes, sent by e-mail; only its SHA-256 is
 * stored. The link leads to where the account lives (`accountHome`) and works only there.
 * Asking always answers the same, in the same time, whether or not an account uses the address.
 */
export class PasswordResetService {
  private readonly deps: {
    db: Db;
    accounts: AccountService;
    sessions: SessionStore;
    messages: MessageService;
    rateLimiter: RateLimiter;
    links: SiteLinks;
    afterAnswer: AfterAnswer;
  };

  constructor(deps: PasswordResetService["deps"]) {
    this.deps = deps;
  }

  /**
   * Asks for a link. The request itself does the same work for every address (its checks and
   * the address's limit); whether an account uses it, and the link, come after the answer.
   */
  async request(input: unknown, meta: AskedOn & { ip: string }): Promise<void> {
    const { email } = parseWith(ForgotPasswordSchema, input);
    const byIp = await this.deps.rateLimiter.hit(RATE_RULES.forgotIp, meta.ip);
    if (!byIp.allowed) throw tooMany(byIp.retryAfter);
    const askedOn = meta.centerId ?? null;
    this.deps.afterAnswer.run("sending a password reset link", askedOn, () => this.sendLink(email, askedOn));
  }

  /**
   * The link, for an account that uses the address: asked on the platform, or on the institute
   * the account lives on. A platform account (or another institute's student) asked on an
   * institute's site gets nothing, and an account asked for too often gets no more for a while.
   */
  private async sendLink(email: string, askedOn: string | null): Promise<void> {
    const user = await this.deps.accounts.findByEmail(email);
    if (!user) return;
    const home = await accountHome(this.deps.db, user);
    if (askedOn !== null && !isHomeSite(home, askedOn)) return;
    if (!(await this.deps.rateLimiter.hit(RATE_RULES.forgotAccount, user.id)).allowed) return;
    const token = generateToken();
    await this.deps.db.transaction(async (tx) => {
      await tx.insert(passwordResets).values({
        id: hashToken(token),
        userId: user.id,
        centerId: home.centerId,
        expiresAt: new Date(Date.now() + RESET_LINK_MINUTES * 60_000),
      });
      await this.deps.messages.send(tx, {
        template: "password-reset",
        values: { name: user.name, link: this.deps.links.to(home.center, `/reset-password?token=${token}`) },
        to: { email: user.email, userId: user.id },
        centerId: home.centerId,
      });
    });
  }

  /**
   * Sets the new password from a valid link opened on its own site; every other way into the
   * account that was open (links, e-mail changes, codes, sessions) is closed, and the account told.
   */
  async reset(input: unknown, site: AskedOn): Promise<{ role: (typeof users.$inferSelect)["role"] }> {
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
            site.centerId ? eq(passwordResets.centerId, site.centerId) : isNull(passwordResets.centerId),
          ),
        )
        .returning({ userId: passwordResets.userId });
      if (!link) throw new HttpError(400, RESET_TEXTS.invalid);
      const [user] = await tx
        .update(users)
        .set({ passwordHash, updatedAt: sql`now()` })
        .where(eq(users.id, link.userId))
        .returning();
      await cancelPendingChanges(tx, user.id);
      await this.changed(tx, user);
      return user;
    });
    await this.deps.sessions.revokeAllForUser(changed.id);
    return { role: changed.role };
  }

  /**
   * A signed-in person's new password, given their current one (counted like sign-in attempts,
   * so it cannot be guessed this way). Every other session of theirs is signed out, and what
   * was pending on the account (links, e-mail changes, codes) is cancelled.
   */
  async change(
    user: { id: string; email: string },
    session: Pick<ValidSession, "id" | "familyId">,
    input: unknown,
  ): Promise<void> {
    const { currentPassword, password } = parseWith(ChangePasswordSchema, input);
    const row = await this.deps.accounts.confirmPassword(user, currentPassword);
    const passwordHash = await hashNewPassword(password);
    await this.deps.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ passwordHash, updatedAt: sql`now()` })
        .where(eq(users.id, user.id));
      await cancelPendingChanges(tx, user.id);
      await this.changed(tx, row);
    });
    await this.deps.sessions.revokeAllForUser(user.id, session);
  }

  /**
   * Tells the account its password changed, by e-mail and on its verified number, with the way
   * back (on its own site) if it was not them.
   */
  private async changed(tx: DbOrTx, user: typeof users.$inferSelect) {
    const home = await accountHome(tx, user);
    await this.deps.messages.send(tx, {
      template: "password-changed",
      values: { name: user.name, link: this.deps.links.to(home.center, "/forgot-password") },
      to: { email: user.email, phone: user.phone, userId: user.id },
      centerId: home.centerId,
    });
  }
}

/** A new password's hash, once it is not one of the common ones. */
async function hashNewPassword(password: string): Promise<string> {
  if (isCommonPassword(password)) throw new HttpError(400, COMMON_PASSWORD);
  return hashPassword(password);
}
