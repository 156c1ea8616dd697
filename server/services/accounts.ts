import { eq, sql } from "drizzle-orm";
import * as v from "valibot";
import { users } from "../db/schema/index.ts";
import type { Db, DbOrTx } from "../db/types.ts";
import { burnPasswordCheck, hashPassword, verifyPassword } from "../auth/password.ts";
import { isCommonPassword } from "../auth/common-passwords.ts";
import { sessionUserColumns, type SessionUser } from "../auth/sessions.ts";
import { HttpError, conflict, forbidden, parseWith } from "../http/errors.ts";
import {
  emailSchema,
  passwordSchema,
  personNameSchema,
  ROLES,
  SELF_SERVICE_ROLES,
  text,
} from "#common/validation/account.ts";
import { RATE_RULES, type RateLimiter, type RateRule } from "./rate-limit.ts";
import { RESET_TEXTS } from "#common/validation/account-security.ts";

const WRONG_CURRENT_PASSWORD = RESET_TEXTS.wrongCurrent;

export const INVALID_CREDENTIALS = "Invalid email or password";
export const EMAIL_TAKEN = "An account with this email already exists";
export const COMMON_PASSWORD = "This password is too common. Please choose another.";
/** On an institute's domain only its students sign up (owners registered when buying the plan). */
export const STUDENTS_ONLY_SIGN_UP = "Only students can sign up here.";
/** Admins work on the platform's own address; an institute's domain never holds an admin session. */
export const ADMIN_SIGN_IN_ELSEWHERE = "Admins sign in on Pathshala's own address, not on an institute's site.";

export const RegisterInput = v.object({
  name: personNameSchema,
  email: emailSchema,
  password: v.pipe(
    passwordSchema,
    v.check((p) => !isCommonPassword(p), COMMON_PASSWORD),
  ),
  role: v.optional(v.picklist(ROLES, "Role must be student, creator or business"), "creator"),
});

export const LoginInput = v.object({
  email: emailSchema,
  password: v.pipe(
    text("Password is required"),
    v.nonEmpty("Password is required"),
    v.maxLength(1024, INVALID_CREDENTIALS),
  ),
  role: v.optional(v.picklist(ROLES, "Role must be student, creator, business or admin")),
});

export interface RequestMeta {
  ip: string;
  /** The institute whose domain the request came to, if any. */
  centerId?: string;
}

export interface PublicUser {
  _id: string;
  id: string;
  name: string;
  email: string;
  role: SessionUser["role"];
  avatarUrl: string | null;
  createdAt: string;
}

/** The user as the API and the pages show it (never the password hash). */
export function toPublicUser(
  user: Pick<SessionUser, "id" | "name" | "email" | "role" | "avatarKey" | "createdAt">,
): PublicUser {
  return {
    _id: user.id,
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    avatarUrl: user.avatarKey ? `/media/${user.avatarKey}` : null,
    createdAt: user.createdAt.toISOString(),
  };
}

/** Registration and sign-in, shared by the JSON API and the pages' actions. */
export class AccountService {
  private readonly db: Db;
  private readonly limiter: RateLimiter;
  /** Told after this service changes a user's row (the session cache forgets what it kept). */
  private readonly userChanged: (userId: string) => void;
  /** Told after an account is created (the role counts kept in memory are forgotten). */
  private readonly accountAdded: () => void;

  /** Writes the welcome message in the transaction that creates the account. */
  private readonly welcome: (tx: DbOrTx, user: SessionUser) => Promise<void>;

  constructor(
    db: Db,
    limiter: RateLimiter,
    userChanged: (userId: string) => void = () => {},
    accountAdded: () => void = () => {},
    welcome: (tx: DbOrTx, user: SessionUser) => Promise<void> = async () => {},
  ) {
    this.userChanged = userChanged;
    this.accountAdded = accountAdded;
    this.welcome = welcome;
    this.db = db;
    this.limiter = limiter;
  }

  async register(input: unknown, meta: RequestMeta): Promise<SessionUser> {
    const raw = (input ?? {}) as Record<string, unknown>;
    // Refuse an admin self-registration before anything else: nothing is created, nothing counted.
    if (raw.role === "admin") throw forbidden("Admin accounts cannot be created by registration.");
    const onInstituteSite = meta.centerId !== undefined;
    const data = parseWith(
      RegisterInput,
      onInstituteSite && raw.role === undefined ? { ...raw, role: "student" } : input,
    );
    if (!(SELF_SERVICE_ROLES as readonly string[]).includes(data.role))
      throw forbidden("Admin accounts cannot be created by registration.");
    if (onInstituteSite && data.role !== "student") throw forbidden(STUDENTS_ONLY_SIGN_UP);
    await this.limit(RATE_RULES.registerIp, meta.ip);
    await this.limit(RATE_RULES.registerAccount, data.email);

    const passwordHash = await hashPassword(data.password);
    const row = await this.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(users)
        .values({ name: data.name, email: data.email, passwordHash, role: data.role, signupCenterId: meta.centerId })
        .onConflictDoNothing({ target: users.email })
        .returning(sessionUserColumns);
      if (created) await this.welcome(tx, created);
      return created;
    });
    if (!row) throw conflict(EMAIL_TAKEN);
    this.accountAdded();
    return row;
  }

  /**
   * Same answer and the same work for an unknown email and a wrong password. Every attempt is
   * counted against the account before its password is checked, so parallel guesses cannot
   * outrun the limit; a failure's count stays, a success clears the account's.
   */
  async authenticate(input: unknown, meta: RequestMeta): Promise<SessionUser> {
    const data = parseWith(LoginInput, input);
    await this.limit(RATE_RULES.loginIp, meta.ip);
    await this.limit(RATE_RULES.loginAccount, data.email);

    const [row] = await this.db
      .select({ ...sessionUserColumns, passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.email, data.email));
    const ok = row ? await verifyPassword(row.passwordHash, data.password) : await burnPasswordCheck(data.password);
    if (!row || !ok) throw new HttpError(401, INVALID_CREDENTIALS);
    await this.limiter.reset(RATE_RULES.loginAccount, data.email);
    if (row.role === "admin" && meta.centerId !== undefined) throw forbidden(ADMIN_SIGN_IN_ELSEWHERE);
    const { passwordHash: _omit, ...user } = row;
    return user;
  }

  /**
   * A signed-in person's current password, asked for before a change to their account (a new
   * password or e-mail). Counted with the account's sign-in attempts, so it cannot be guessed here.
   */
  async confirmPassword(user: { id: string; email: string }, password: string): Promise<typeof users.$inferSelect> {
    await this.limit(RATE_RULES.loginAccount, user.email);
    const [row] = await this.db.select().from(users).where(eq(users.id, user.id));
    if (!row || !(await verifyPassword(row.passwordHash, password)))
      throw new HttpError(400, WRONG_CURRENT_PASSWORD, {
        issues: [{ field: "currentPassword", message: WRONG_CURRENT_PASSWORD }],
      });
    return row;
  }

  async findByEmail(email: string): Promise<SessionUser | undefined> {
    const [row] = await this.db
      .select(sessionUserColumns)
      .from(users)
      .where(eq(users.email, email.trim().toLowerCase()));
    return row;
  }

  async findById(id: string): Promise<SessionUser | undefined> {
    const [row] = await this.db.select(sessionUserColumns).from(users).where(eq(users.id, id));
    return row;
  }

  async setAvatarKey(userId: string, key: string | null): Promise<{ previous: string | null; user: SessionUser }> {
    const changed = await this.db.transaction(async (tx) => {
      const [before] = await tx
        .select({ avatarKey: users.avatarKey })
        .from(users)
        .where(eq(users.id, userId))
        .for("update");
      const [user] = await tx
        .update(users)
        .set({ avatarKey: key, updatedAt: sql`now()` })
        .where(eq(users.id, userId))
        .returning(sessionUserColumns);
      return { previous: before?.avatarKey ?? null, user };
    });
    this.userChanged(userId);
    return changed;
  }

  async limit(rule: RateRule, key: string): Promise<void> {
    const decision = await this.limiter.hit(rule, key);
    if (!decision.allowed) throw tooMany(decision.retryAfter);
  }
}

export function tooMany(retryAfter: number): HttpError {
  const minutes = Math.ceil(retryAfter / 60);
  const wait = retryAfter < 60 ? `${retryAfter} seconds` : `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return new HttpError(
    429,
    `Too many attempts. Please try again in ${wait}.`,
    { retryAfter },
    { "Retry-After": String(retryAfter) },
  );
}
