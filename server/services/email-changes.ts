import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { emailChanges, users } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import { generateToken, hashToken } from "../auth/tokens.ts";
import { HttpError, conflict, parseWith } from "../http/errors.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { ChangeEmailSchema, ConfirmEmailSchema, EMAIL_CHANGE_TEXTS } from "#common/validation/account-security.ts";
import type { MessageService } from "../messages/service.ts";
import type { SiteLinks } from "../messages/links.ts";
import { EMAIL_TAKEN, type AccountService } from "./accounts.ts";
import { accountHome } from "./account-home.ts";
import { cancelEmailChanges, voidResetLinks } from "./recovery.ts";

const LINK_HOURS = 24;

/**
 * Changing the e-mail an account signs in with (issue 30 §4): the current password, then a link
 * sent to the new address, leading to where the account lives and working only there; opening
 * it makes the change, voids the account's reset links and tells the old and new channels.
 */
export class EmailChangeService {
  private readonly deps: {
    db: Db;
    messages: MessageService;
    accounts: AccountService;
    /** The session cache forgets the user (their e-mail changed). */
    userChanged: (userId: string) => void;
    links: SiteLinks;
  };

  constructor(deps: EmailChangeService["deps"]) {
    this.deps = deps;
  }

  async request(user: { id: string; email: string }, input: unknown): Promise<{ message: string }> {
    const { email, currentPassword } = parseWith(ChangeEmailSchema, input);
    const row = await this.deps.accounts.confirmPassword(user, currentPassword);
    if (email === row.email) throw new HttpError(400, EMAIL_CHANGE_TEXTS.same);
    const [taken] = await this.deps.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    if (taken) throw conflict(EMAIL_TAKEN);
    const token = generateToken();
    await this.deps.db.transaction(async (tx) => {
      const home = await accountHome(tx, row);
      await tx.insert(emailChanges).values({
        id: hashToken(token),
        userId: row.id,
        newEmail: email,
        centerId: home.centerId,
        expiresAt: new Date(Date.now() + LINK_HOURS * 3_600_000),
      });
      await this.deps.messages.send(tx, {
        template: "email-change",
        values: { name: row.name, email, link: this.deps.links.to(home.center, `/confirm-email?token=${token}`) },
        to: { email, userId: row.id },
        centerId: home.centerId,
      });
    });
    return { message: EMAIL_CHANGE_TEXTS.sent(email) };
  }

  /** Opening the link on its own site: the account signs in with the new address from now on. */
  async confirm(input: unknown, site: { centerId?: string }): Promise<{ email: string }> {
    const { token } = parseWith(ConfirmEmailSchema, input);
    let changed: { userId: string; email: string };
    try {
      changed = await this.deps.db.transaction(async (tx) => {
        const [link] = await tx
          .update(emailChanges)
          .set({ usedAt: sql`now()` })
          .where(
            and(
              eq(emailChanges.id, hashToken(token)),
              isNull(emailChanges.usedAt),
              gt(emailChanges.expiresAt, sql`now()`),
              site.centerId ? eq(emailChanges.centerId, site.centerId) : isNull(emailChanges.centerId),
            ),
          )
          .returning();
        if (!link) throw new HttpError(400, EMAIL_CHANGE_TEXTS.invalid);
        const [before] = await tx.select().from(users).where(eq(users.id, link.userId)).for("update");
        await tx
          .update(users)
          .set({ email: link.newEmail, updatedAt: sql`now()` })
          .where(eq(users.id, link.userId));
        // A reset link sent to the old address must not take the account back.
        await voidResetLinks(tx, before.id);
        await cancelEmailChanges(tx, before.id);
        const home = await accountHome(tx, before);
        const notice = {
          template: "email-changed" as const,
          values: { name: before.name, email: link.newEmail, link: this.deps.links.to(null, "/contact") },
          centerId: home.centerId,
        };
        await this.deps.messages.send(tx, {
          ...notice,
          to: { email: before.email, phone: before.phone, userId: before.id },
        });
        await this.deps.messages.send(tx, { ...notice, to: { email: link.newEmail, userId: before.id } });
        return { userId: link.userId, email: link.newEmail };
      });
    } catch (error) {
      if (isUniqueViolation(error, "users_email_key")) throw conflict(EMAIL_TAKEN);
      throw error;
    }
    this.deps.userChanged(changed.userId);
    return { email: changed.email };
  }
}
