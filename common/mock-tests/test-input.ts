import * as v from "valibot";
import { SectionMarkingSchema } from "./marking.ts";
import { PATTERN_IDS } from "./patterns.ts";
import { QUESTION_TYPES } from "./marking.ts";
import { TIE_BREAK_KINDS, TIE_BREAK_LABELS } from "./policies.ts";
import { businessIdSchema, descriptionSchema, priceSchema, titleSchema } from "../validation/content.ts";

/** The inputs of the tests API (issue 29): one schema each, which both parses and documents it. */

const id = (label: string) => v.pipe(v.string(`${label} must be text`), v.uuid(`${label} is not a valid id`));

const isoTime = (label: string) =>
  v.pipe(
    v.string(`${label} must be a date and time`),
    v.isoTimestamp(`${label} must be an ISO date and time, e.g. 2026-12-01T09:00:00+05:30`),
    v.transform((s) => new Date(s)),
  );

/** A test and a series are sold as content is: the same title, description, price (rupees in, paise out) and institute. */
const SOLD_AS_CONTENT = {
  title: titleSchema,
  description: descriptionSchema,
  price: priceSchema,
  businessId: businessIdSchema,
};

export const RESULT_RELEASES = ["immediate", "after-window", "manual"] as const;
export type ResultRelease = (typeof RESULT_RELEASES)[number];

/** Draw N questions of the bank matching these tags (the builder's "N per chapter × difficulty"). */
export const DrawRuleSchema = v.object({
  subject: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
  chapter: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
  difficulty: v.optional(v.picklist(["easy", "medium", "hard"], 'Difficulty must be "easy", "medium" or "hard"')),
  type: v.optional(v.picklist(QUESTION_TYPES, 'Type must be "single", "multiple" or "numerical"')),
  count: v.pipe(
    v.number("How many questions to draw must be a number"),
    v.integer("How many questions to draw must be a whole number"),
    v.minValue(1, "Draw at least one question"),
    v.maxValue(200, "Draw at most 200 questions by one rule"),
  ),
});

export const TestSectionInputSchema = v.object({
  name: v.pipe(
    v.string("A section's name must be text"),
    v.trim(),
    v.nonEmpty("Every section needs a name"),
    v.maxLength(100, "A section's name can be at most 100 characters"),
  ),
  /** The subject the section is part of; by default the pattern's, else its questions' subject tag. */
  subject: v.optional(
    v.pipe(
      v.string("A section's subject must be text"),
      v.trim(),
      v.maxLength(100, "A section's subject can be at most 100 characters"),
    ),
  ),
  questions: v.optional(
    v.pipe(v.array(id("A question"), "A section's questions must be a list of ids"), v.maxLength(300)),
    [],
  ),
  draw: v.optional(v.pipe(v.array(DrawRuleSchema), v.maxLength(20)), []),
  marking: v.optional(SectionMarkingSchema),
  attemptAny: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});

/** A question bank: "own" (its author's own, outside any institute) or an institute's id. */
export const BankSchema = v.union(
  [v.literal("own"), v.pipe(v.string(), v.uuid())],
  'A bank is "own" or the id of an institute',
);

/** `POST /api/questions/copy`: questions copied from banks the caller may read to one they may write to. */
export const CopyQuestionsSchema = v.object({
  questions: v.pipe(
    v.array(id("A question"), "questions must be a list of ids"),
    v.minLength(1, "Choose at least one question to copy"),
    v.maxLength(200, "Copy at most 200 questions at a time"),
  ),
  to: BankSchema,
});

const TIE_BREAK_LIST = [
  ...TIE_BREAK_KINDS.map((kind) => `"${kind}" (${TIE_BREAK_LABELS[kind]})`),
  '{"subjectOrder": ["Mathematics", "Physics", "Chemistry"]} (higher marks subject by subject, in the order named)',
].join(", ");

export const TIE_BREAK_TEXTS = {
  unsupported: (given: unknown) =>
    `Ranks cannot be tie-broken by ${typeof given === "string" ? `"${given.slice(0, 60)}"` : "that"}. The tie-breaks are ${TIE_BREAK_LIST}.`,
  twice: "A tie-break is listed twice",
  tooMany: "List at most 6 tie-breaks",
  notASubject: (subject: string, subjects: string[]) =>
    `"${subject}" is not a subject of this test; its subjects are ${subjects.join(", ") || "none"}`,
} as const;

/** One tie-break: a kind, or the subjects' order; anything else is refused in words, never dropped. */
const TieBreakSchema = v.union(
  [
    v.picklist(TIE_BREAK_KINDS),
    v.strictObject({
      subjectOrder: v.pipe(
        v.array(v.pipe(v.string(), v.trim(), v.nonEmpty(), v.maxLength(100))),
        v.minLength(1),
        v.maxLength(10),
      ),
    }),
  ],
  (issue) => TIE_BREAK_TEXTS.unsupported(issue.input),
);

/** How takers with the same score are ordered, first to last (`PUT /api/tests/{id}/tie-breaks`, the builder). */
export const TieBreaksSchema = v.pipe(
  v.array(TieBreakSchema, 'Tie-breaks must be a list, e.g. ["fewer-wrong", "less-time"]'),
  v.maxLength(6, TIE_BREAK_TEXTS.tooMany),
  v.check(
    (list) => new Set(list.map((t) => (typeof t === "string" ? t : "subjectOrder"))).size === list.length,
    TIE_BREAK_TEXTS.twice,
  ),
);

export const SetTieBreaksSchema = v.object({ tieBreaks: TieBreaksSchema });

/** `POST /api/tests`: a draft test. Sections left out come from the pattern, with its marking. */
export const CreateTestSchema = v.pipe(
  v.object({
    ...SOLD_AS_CONTENT,
    pattern: v.optional(v.picklist(PATTERN_IDS, `Pattern must be one of ${PATTERN_IDS.join(", ")}`), "custom"),
    durationMinutes: v.optional(
      v.pipe(
        v.number("Duration must be a number of minutes"),
        v.integer("Duration must be whole minutes"),
        v.minValue(1, "Duration must be at least 1 minute"),
        v.maxValue(600, "Duration can be at most 600 minutes"),
      ),
    ),
    sections: v.optional(v.pipe(v.array(TestSectionInputSchema, "Sections must be a list"), v.maxLength(30))),
    opensAt: v.optional(v.nullable(isoTime("Opening time"))),
    closesAt: v.optional(v.nullable(isoTime("Closing time"))),
    attemptsAllowed: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(20)), 1),
    resultRelease: v.optional(
      v.picklist(RESULT_RELEASES, 'Result release must be "immediate", "after-window" or "manual"'),
      "immediate",
    ),
    practice: v.optional(v.boolean("Practice must be true or false"), false),
    tieBreaks: v.optional(TieBreaksSchema, []),
  }),
  v.check(
    (t) => !t.opensAt || !t.closesAt || t.opensAt < t.closesAt,
    "The closing time must be after the opening time",
  ),
  v.check(
    (t) => t.resultRelease !== "after-window" || Boolean(t.closesAt),
    "Results after the window need a closing time",
  ),
);
export type CreateTestInput = v.InferOutput<typeof CreateTestSchema>;

const answer = v.union(
  [
    v.null(),
    v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(5)),
    v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(5))), v.maxLength(6)),
    v.pipe(v.string(), v.maxLength(32)),
  ],
  "An answer is an option's number, a list of them, the typed number, or null",
);

/** `PUT /api/attempts/{id}/responses/{questionId}`. */
export const ResponseSaveSchema = v.object({
  answer,
  markedForReview: v.optional(v.boolean("markedForReview must be true or false"), false),
  seq: v.pipe(
    v.number("seq must be a number"),
    v.integer("seq must be a whole number"),
    v.minValue(1, "seq starts at 1"),
    v.maxValue(2_000_000_000),
  ),
  /**
   * When the answer was made, in the server's clock as the screen keeps it: what a save that arrives
   * after the deadline is judged by (issue 38 §2).
   */
  answeredAt: v.optional(
    v.pipe(
      v.string("answeredAt must be a date and time"),
      v.isoTimestamp("answeredAt must be an ISO date and time, e.g. 2026-12-01T09:00:00.000Z"),
      v.transform((s) => new Date(s)),
    ),
  ),
});

/** `POST /api/attempts/{id}/submit`: the student's Yes, or the screen's clock at zero. */
export const SubmitSchema = v.optional(
  v.object({
    by: v.optional(v.picklist(["student", "clock"], 'Submitted by must be "student" or "clock"'), "student"),
  }),
  {},
);

/** `POST /api/attempts/{id}/events`: one event, or several sent together after a reconnect. */
const EVENT_TYPES = ["visited", "section-changed", "resumed", "language"] as const;
const eventFields = {
  type: v.picklist(EVENT_TYPES, 'Event type must be "visited", "section-changed", "resumed" or "language"'),
  /** The language the screen shows from now on ("language" events). */
  language: v.optional(v.picklist(["en", "hi"], 'Language must be "en" or "hi"')),
  questionId: v.optional(id("The question")),
  section: v.optional(v.pipe(v.string("section must be text"), v.maxLength(100))),
  seq: v.pipe(
    v.number("seq must be a number"),
    v.integer("seq must be a whole number"),
    v.minValue(0),
    v.maxValue(2_000_000_000),
  ),
};
export const EventsSchema = v.pipe(
  v.object({
    type: v.optional(eventFields.type),
    language: eventFields.language,
    questionId: eventFields.questionId,
    section: eventFields.section,
    seq: v.optional(eventFields.seq),
    events: v.optional(v.pipe(v.array(v.object(eventFields), "events must be a list"), v.maxLength(500))),
  }),
  v.check(
    (body) => body.events !== undefined || (body.type !== undefined && body.seq !== undefined),
    "Send an event {type, questionId?, section?, seq} or {events: [...]}",
  ),
  v.check(
    (body) => [body, ...(body.events ?? [])].every((e) => e.type !== "language" || e.language !== undefined),
    'A "language" event names the language: "en" or "hi"',
  ),
);

/** `PUT /api/tests/{id}/questions/{questionId}/policy`: the key decision after the test. */
export const KeyPolicySchema = v.variant(
  "kind",
  [
    v.object({ kind: v.literal("dropped") }),
    v.object({
      kind: v.literal("any-of"),
      answers: v.pipe(v.array(v.pipe(v.number(), v.integer(), v.minValue(0))), v.minLength(1)),
    }),
    v.object({ kind: v.literal("changed"), answer: v.unknown() }),
    v.object({ kind: v.literal("none") }),
  ],
  'The policy is {kind: "dropped"}, {kind: "any-of", answers}, {kind: "changed", answer} or {kind: "none"}',
);

/** `POST /api/attempts/{id}/extra-time`: minutes granted to one student. */
export const ExtraTimeSchema = v.object({
  minutes: v.pipe(
    v.number("Minutes must be a number"),
    v.integer("Minutes must be whole"),
    v.minValue(1, "Grant at least 1 minute"),
    v.maxValue(240, "Grant at most 240 minutes"),
  ),
});

/** `POST /api/series`: an ordered bundle of the team's tests, sold as one. */
export const CreateSeriesSchema = v.object({
  ...SOLD_AS_CONTENT,
  tests: v.pipe(
    v.array(id("A test"), "tests must be a list of test ids"),
    v.minLength(1, "A series needs at least one test"),
    v.maxLength(50, "A series can hold at most 50 tests"),
    v.check((ids) => new Set(ids).size === ids.length, "A test is listed twice"),
  ),
});
