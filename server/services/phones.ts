import { randomInt } from "node:crypto";
import { and, desc, eq, gt, isNull, lt, ne, sql } from "drizzle-orm";
import { phoneCodes, users } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import { hashToken, timingSafeEqualText } from "../auth/tokens.ts";
import { sessionUserColumns, type SessionUser } from "../auth/sessions.ts";
import { HttpError, conflict, forbidden, parseWith } from "../http/errors.ts";
import { isUniqueViolation } from "../db/errors.ts";
import { PHONE_TEXTS, PhoneCodeSchema, PhoneSchema, PhoneSignInSchema } from "#common/validation/phone-code.ts";
import { e164 } from "../messages/phone.ts";
import { holdsParentRole } from "../db/families.ts";
import { unreachableFor } from "../messages/recipient-policy.ts";
import { NUMBER_TEXTS } from "../messages/reachable-numbers.ts";
import type { MessageService } from "../messages/service.ts";
import { RATE_RULES, type RateLimiter, type RateRule } from "./rate-limit.ts";
import type { AfterAnswer } from "./after-answer.ts";
import { accountHome, isHomeSite } from "./account-home.ts";
import { ADMIN_SIGN_IN_ELSEWHERE, tooMany } from "./accounts.ts";

const CODE_MINUTES = 10;
const MAX_TRIES = 5;
type Purpose = "verify" | "sign-in" | "family";

/**
 * Phone numbers on accounts (issue 30 §4): a number is added by the code sent to it, and a
 * verified number can sign in with a code. Codes are 6 digits from the CSPRNG, kept only as a
 * hash, valid 10 minutes and 5 tries; asking is rate limited per number and per address.
 */
export class PhoneService {
  private readonly deps: { db: Db; messages: MessageService; rateLimiter: RateLimiter; afterAnswer: AfterAnswer };

  constructor(deps: PhoneService["deps"]) {
    this.deps = deps;
  }

  /** The account's verified number, if any. */
  async of(userId: string): Promise<string | null> {
    const [row] = await this.deps.db.select({ phone: users.phone }).from(users).where(eq(users.id, userId));
    return row?.phone ?? null;
  }

  /**
   * Sends a code to the number a signed-in account is adding; the answer names where it went.
   * It is the same answer, after the same work, whether or not another account holds the
   * number: only whoever holds the phone learns that, from the code (issue 37 §8).
   */
  async requestVerification(user: { id: string }, input: unknown, meta: { ip: string; centerId?: string }) {
    const phone = this.numberOf(input);
    await this.reachable(phone, meta.centerId);
    await this.limit(RATE_RULES.phoneCodeIp, meta.ip);
    await this.limit(RATE_RULES.phoneCodeAccount, user.id);
    await this.limit(RATE_RULES.phoneCodeNumber, phone);
    await this.sendCode("verify", phone, user.id, meta.centerId);
    return { phone, message: PHONE_TEXTS.codeSent(phone) };
  }

  /** The code sent to the number being added: it becomes the account's verified number. */
  async verify(user: { id: string }, input: unknown): Promise<{ phone: string }> {
    const { code } = parseWith(PhoneCodeSchema, input);
    const [latest] = await this.deps.db
      .select()
      .from(phoneCodes)
      .where(and(eq(phoneCodes.userId, user.id), eq(phoneCodes.purpose, "verify")))
      .orderBy(desc(phoneCodes.createdAt))
      .limit(1);
    const used = await this.spend(latest, code);
    const [owner] = await this.deps.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.phone, used.phone), ne(users.id, user.id)));
    if (owner) throw conflict(PHONE_TEXTS.taken);
    try {
      await this.deps.db
        .update(users)
        .set({ phone: used.phone, phoneVerifiedAt: sql`now()`, updatedAt: sql`now()` })
        .where(eq(users.id, user.id));
    } catch (error) {
      if (isUniqueViolation(error, "users_phone_key")) throw conflict(PHONE_TEXTS.taken);
      throw error;
    }
    return { phone: used.phone };
  }

  /**
   * A code to sign in with, sent only if an account has verified the number, and only when asked
   * on the platform or on the institute the account lives on (as reset links are); it works only
   * on the site it was asked on. The answer is the same, in the same time, either way: whether an
   * account has the number is looked up after the answer.
   */
  async requestSignIn(input: unknown, meta: { ip: string; centerId?: string }): Promise<void> {
    const phone = this.numberOf(input);
    await this.reachable(phone, meta.centerId);
    await this.limit(RATE_RULES.phoneCodeIp, meta.ip);
    const askedOn = meta.centerId ?? null;
    this.deps.afterAnswer.run("sending a sign-in code", askedOn, async () => {
      const [user] = await this.deps.db
        .select({ id: users.id, role: users.role, signupCenterId: users.signupCenterId })
        .from(users)
        .where(eq(users.phone, phone));
      if (!user) return;
      // On an institute's site: its own students, and the parents it has linked to them.
      if (
        askedOn !== null &&
        !isHomeSite(await accountHome(this.deps.db, user), askedOn) &&
        !(await holdsParentRole(this.deps.db, user.id, askedOn))
      )
        return;
      if (!(await this.deps.rateLimiter.hit(RATE_RULES.phoneCodeNumber, phone)).allowed) return;
      await this.sendCode("sign-in", phone, user.id, meta.centerId);
    });
  }

  /** The account a sign-in code belongs to, once the code is right. */
  async signIn(input: unknown, meta: { centerId?: string }): Promise<SessionUser> {
    const body = parseWith(PhoneSignInSchema, input);
    const phone = e164(body.phone);
    if (!phone) throw new HttpError(400, PHONE_TEXTS.invalid);
    const [latest] = await this.deps.db
      .select()
      .from(phoneCodes)
      .where(
        and(
          eq(phoneCodes.phone, phone),
          eq(phoneCodes.purpose, "sign-in"),
          meta.centerId ? eq(phoneCodes.centerId, meta.centerId) : isNull(phoneCodes.centerId),
        ),
      )
      .orderBy(desc(phoneCodes.createdAt))
      .limit(1);
    const used = await this.spend(latest, body.code);
    if (!used.userId) throw new HttpError(400, PHONE_TEXTS.wrongCode);
    const [user] = await this.deps.db
      .select(sessionUserColumns)
      .from(users)
      .where(and(eq(users.id, used.userId), eq(users.phone, phone)));
    if (!user) throw new HttpError(400, PHONE_TEXTS.wrongCode);
    if (user.role === "admin" && meta.centerId !== undefined) throw forbidden(ADMIN_SIGN_IN_ELSEWHERE);
    return user;
  }

  /**
   * A code proving that whoever opened a parent's invitation holds the number it was sent to
   * (decision 0047): sent only to that number, on the institute's site, under the same limits
   * per number and network address as sign-in codes.
   */
  async sendFamilyCode(phone: string, centerId: string, meta: { ip: string }): Promise<void> {
    await this.limit(RATE_RULES.phoneCodeIp, meta.ip);
    await this.limit(RATE_RULES.phoneCodeNumber, phone);
    await this.sendCode("family", phone, null, centerId);
  }

  /** Spends the latest family code sent to `phone` at `centerId`; a wrong, expired or spent one is a 400. */
  async proveFamilyNumber(phone: string, centerId: string, code: string): Promise<void> {
    const [latest] = await this.deps.db
      .select()
      .from(phoneCodes)
      .where(and(eq(phoneCodes.phone, phone), eq(phoneCodes.purpose, "family"), eq(phoneCodes.centerId, centerId)))
      .orderBy(desc(phoneCodes.createdAt))
      .limit(1);
    await this.spend(latest, code);
  }

  private numberOf(input: unknown): string {
    const phone = e164(parseWith(PhoneSchema, input).phone);
    if (!phone) throw new HttpError(400, PHONE_TEXTS.invalid);
    return phone;
  }

  /** A number that WhatsApp and SMS may not go to is refused before anything is counted or sent (issue 37 §6). */
  private async reachable(phone: string, centerId?: string) {
    const reason = await unreachableFor(this.deps.db, phone, centerId);
    if (reason)
      throw new HttpError(400, reason === NUMBER_TEXTS.notMobile ? PHONE_TEXTS.notMobile : PHONE_TEXTS.notIndian);
  }

  private async limit(rule: RateRule, key: string) {
    const decision = await this.deps.rateLimiter.hit(rule, key);
    if (!decision.allowed) throw tooMany(decision.retryAfter);
  }

  private async sendCode(purpose: Purpose, phone: string, userId: string | null, centerId?: string) {
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(phoneCodes)
        .values({
          purpose,
          phone,
          userId,
          centerId: centerId ?? null,
          codeHash: "",
          expiresAt: new Date(Date.now() + CODE_MINUTES * 60_000),
        })
        .returning({ id: phoneCodes.id });
      await tx
        .update(phoneCodes)
        .set({ codeHash: codeHash(row.id, code) })
        .where(eq(phoneCodes.id, row.id));
      await this.deps.messages.send(tx, { template: "phone-code", values: { code }, to: { phone, userId }, centerId });
    });
  }

  /**
   * Checks a code against the latest one sent. Each try is counted first, in one statement, so
   * parallel guesses cannot exceed five; a right code is spent. A wrong, expired or spent code
   * gets the same answer.
   */
  private async spend(row: typeof phoneCodes.$inferSelect | undefined, code: string) {
    if (!row) throw new HttpError(400, PHONE_TEXTS.wrongCode);
    const [counted] = await this.deps.db
      .update(phoneCodes)
      .set({ tries: sql`${phoneCodes.tries} + 1` })
      .where(
        and(
          eq(phoneCodes.id, row.id),
          lt(phoneCodes.tries, MAX_TRIES),
          isNull(phoneCodes.usedAt),
          gt(phoneCodes.expiresAt, sql`now()`),
        ),
      )
      .returning();
    if (!counted || !timingSafeEqualText(counted.codeHash, codeHash(row.id, code)))
      throw new HttpError(400, PHONE_TEXTS.wrongCode);
    const [spent] = await this.deps.db
      .update(phoneCodes)
      .set({ usedAt: sql`now()` })
      .where(and(eq(phoneCodes.id, row.id), isNull(phoneCodes.usedAt)))
      .returning();
    if (!spent) throw new HttpError(400, PHONE_TEXTS.wrongCode);
    return spent;
  }
}

const codeHash = (id: string, code: string) => hashToken(`${id}:${code}`);
