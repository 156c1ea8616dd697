import * as v from "valibot";

/**
 * The language of the messages a person gets (issue 38 §6): e-mail, WhatsApp and SMS. An institute
 * chooses one for the messages sent on its behalf; a person may choose their own, which wins.
 * This is not the language of a test's questions (the exam screen's own toggle).
 */

export const MESSAGE_LANGUAGES = ["en", "hi"] as const;
export type MessageLanguage = (typeof MESSAGE_LANGUAGES)[number];

/** What a person may choose: a language, or whatever the institute the message is about chose. */
export const ACCOUNT_LANGUAGE_CHOICES = ["institute", ...MESSAGE_LANGUAGES] as const;
export type AccountLanguageChoice = (typeof ACCOUNT_LANGUAGE_CHOICES)[number];

/** Each language by its own name, as the person who reads it would look for it. */
export const LANGUAGE_NAMES: Record<MessageLanguage, string> = { en: "English", hi: "हिन्दी" };

export const MESSAGE_LANGUAGE_TEXTS = {
  title: "Language of messages",
  instituteDescription:
    "The language of the e-mails, WhatsApp messages and SMS sent on your institute's behalf: to its students, its visitors and you. Anyone who chose a language on their account gets theirs.",
  accountDescription:
    "The language of the e-mails, WhatsApp messages and SMS you get. With Institute's choice, messages from an institute come in the language it chose, and others in English.",
  instituteChoice: "Institute's choice",
  save: "Save language",
  instituteSaved: (language: MessageLanguage) =>
    `Messages from your institute will now be in ${LANGUAGE_NAMES[language]}`,
  accountSaved: (choice: AccountLanguageChoice) =>
    choice === "institute"
      ? "Your messages will now follow the institute's choice"
      : `Your messages will now be in ${LANGUAGE_NAMES[choice]}`,
  instituteInvalid: "Please choose English or हिन्दी as the language of messages.",
  accountInvalid: "Please choose English, हिन्दी or Institute's choice as the language of your messages.",
} as const;

const centerId = v.optional(
  v.pipe(v.string(), v.uuid("Unknown institute"), v.description("which of your institutes (else your newest)")),
);

/** PUT /api/institute/message-language and the owner's Website Details form. */
export const InstituteLanguageSchema = v.object(
  {
    language: v.pipe(
      v.picklist(MESSAGE_LANGUAGES, MESSAGE_LANGUAGE_TEXTS.instituteInvalid),
      v.description("en (English, the default) or hi (हिन्दी)"),
    ),
    centerId,
  },
  // A body without a language (or not an object at all) is asked for one the same way.
  MESSAGE_LANGUAGE_TEXTS.instituteInvalid,
);

/** GET /api/institute/message-language. */
export const InstituteLanguageQuery = v.object({ centerId });

/** PUT /api/auth/message-language and the Account page's form. */
export const AccountLanguageSchema = v.object(
  {
    language: v.pipe(
      v.picklist(ACCOUNT_LANGUAGE_CHOICES, MESSAGE_LANGUAGE_TEXTS.accountInvalid),
      v.description("institute (the default: the institute's choice, else English), en or hi"),
    ),
  },
  MESSAGE_LANGUAGE_TEXTS.accountInvalid,
);
