import { eq, sql } from "drizzle-orm";
import { centers, users } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import { parseWith } from "../http/errors.ts";
import {
  AccountLanguageSchema,
  InstituteLanguageSchema,
  type AccountLanguageChoice,
  type MessageLanguage,
} from "#common/validation/message-language.ts";

/**
 * Who chose which language for their messages (issue 38 §6). The message service reads both
 * choices when it writes a message (server/messages/service.ts): the account's wins, then the
 * institute's for a message sent on its behalf, then English.
 */
export class MessageLanguageService {
  private readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async ofAccount(userId: string): Promise<AccountLanguageChoice> {
    const [row] = await this.db.select({ language: users.messageLanguage }).from(users).where(eq(users.id, userId));
    return row?.language ?? "institute";
  }

  /** Refuses anything but "institute", "en" or "hi" with the product's words, changing nothing. */
  async setForAccount(userId: string, raw: unknown): Promise<AccountLanguageChoice> {
    const { language } = parseWith(AccountLanguageSchema, raw);
    await this.db
      .update(users)
      .set({ messageLanguage: language === "institute" ? null : language, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
    return language;
  }

  async ofInstitute(centerId: string): Promise<MessageLanguage> {
    const [row] = await this.db
      .select({ language: centers.messageLanguage })
      .from(centers)
      .where(eq(centers.id, centerId));
    return row?.language ?? "en";
  }

  /** The caller has checked that `centerId` is the owner's; refuses anything but "en" or "hi". */
  async setForInstitute(centerId: string, raw: unknown): Promise<MessageLanguage> {
    const { language } = parseWith(InstituteLanguageSchema, raw);
    await this.db
      .update(centers)
      .set({ messageLanguage: language, updatedAt: sql`now()` })
      .where(eq(centers.id, centerId));
    return language;
  }
}
