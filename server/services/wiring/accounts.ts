import type { Database } from "../../db/types.ts";
import type { Storage } from "../../storage/index.ts";
import { SessionStore, type SessionRow } from "../../auth/sessions.ts";
import { SessionCache } from "../../caches/session-cache.ts";
import { readTags, type ReadCaches } from "../../caches/read-cache.ts";
import { homeFor } from "#common/home.ts";
import type { RateLimiter } from "../rate-limit.ts";
import { AccountService } from "../accounts.ts";
import { accountHome } from "../account-home.ts";
import { MediaService } from "../media.ts";
import { PasswordResetService } from "../password-resets.ts";
import { PhoneService } from "../phones.ts";
import { EmailChangeService } from "../email-changes.ts";
import type { AfterAnswer } from "../after-answer.ts";
import type { MessagingServices } from "./messaging.ts";

/** Accounts and what a person does with their own: sessions, passwords, phone, e-mail, avatar. */
export interface AccountServices {
  sessions: SessionStore;
  accounts: AccountService;
  passwordResets: PasswordResetService;
  phones: PhoneService;
  emailChanges: EmailChangeService;
  media: MediaService;
}

export function createAccounts(
  database: Database,
  { links, messages }: MessagingServices,
  shared: { rateLimiter: RateLimiter; reads: ReadCaches; afterAnswer: AfterAnswer; storage: Storage },
): AccountServices {
  const { db } = database;
  const { rateLimiter, reads, afterAnswer, storage } = shared;
  const sessions = new SessionStore(db, Date.now, new SessionCache<SessionRow>(database));
  const accounts = new AccountService(
    db,
    rateLimiter,
    (userId) => sessions.forgetUser(userId),
    () => reads.forget(readTags.roles),
    async (tx, user) => {
      const home = await accountHome(tx, user);
      await messages.send(tx, {
        template: "welcome",
        values: { name: user.name, link: links.to(home.center, homeFor(user.role)) },
        to: { email: user.email, userId: user.id },
        centerId: home.centerId,
      });
    },
  );
  return {
    sessions,
    accounts,
    passwordResets: new PasswordResetService({ db, accounts, sessions, messages, rateLimiter, links, afterAnswer }),
    phones: new PhoneService({ db, messages, rateLimiter, afterAnswer }),
    emailChanges: new EmailChangeService({
      db,
      messages,
      accounts,
      userChanged: (userId) => sessions.forgetUser(userId),
      links,
    }),
    media: new MediaService(storage, accounts),
  };
}
