import type {
  AttemptAnswer,
  AttemptEventInput,
  AttemptQuestion,
  AttemptSection,
  AttemptView,
  ResponseSave,
  SavedResponse,
} from "./attempt.ts";

/**
 * The test screen's state (mock-tests.md §2): where the student is, what the server holds for each
 * question, and the answer on screen that is not saved yet. Only the save buttons turn the on-screen
 * answer into a saved one; every step says which calls to the server it causes, so the screen never
 * decides what to send on its own.
 */

/** The five palette states; Answered & Marked for Review is evaluated, Marked for Review alone is not. */
export const QUESTION_STATES = ["not-visited", "not-answered", "answered", "marked", "answered-marked"] as const;
export type QuestionState = (typeof QUESTION_STATES)[number];

export const QUESTION_STATE_LABELS: Record<QuestionState, string> = {
  "not-visited": "Not Visited",
  "not-answered": "Not Answered",
  answered: "Answered",
  marked: "Marked for Review",
  "answered-marked": "Answered & Marked for Review",
};

export interface QuestionRef {
  section: number;
  question: number;
}

export interface ExamState {
  sections: AttemptSection[];
  position: QuestionRef;
  /** The question each section was last left at: its tab opens there again. */
  lastInSection: number[];
  /** What the server holds (or will, once the queue has sent it), by question id. */
  saved: Record<string, SavedResponse>;
  /** The current question's answer on screen; it becomes saved only through a save action. */
  draft: AttemptAnswer;
  /** The newest sequence number used; the next call to the server takes seq + 1. */
  seq: number;
}

/** A call the screen must make: a response save or an event, each with its own sequence number. */
export type ExamEffect =
  { kind: "save"; questionId: string; body: ResponseSave } | { kind: "event"; body: AttemptEventInput };

/** A save that this browser queued and the server has not confirmed (found in storage after a reload). */
export interface PendingSave {
  questionId: string;
  body: ResponseSave;
}

export type ExamAction =
  /** The screen is shown (after the instructions, or on resume): the first question is visited. */
  | { type: "open"; resumed: boolean }
  /** An option picked or a digit typed: on screen only. */
  | { type: "draft"; answer: AttemptAnswer }
  /** A palette number or the question paper: the draft is dropped, nothing is saved. */
  | { type: "go"; to: QuestionRef }
  /** A section tab: opens the section where it was left. */
  | { type: "section"; section: number }
  | { type: "back" }
  | { type: "next" }
  /**
   * SAVE & NEXT (mark false) and SAVE & MARK FOR REVIEW (mark true, needs an answer on screen);
   * practice mode stays on the question to show its solution.
   */
  | { type: "save"; mark: boolean; then: "next" | "stay" }
  /**
   * MARK FOR REVIEW & NEXT: as the NTA's instructions put it, saves the answer on screen (if any),
   * marks the question for review and goes to the next question.
   */
  | { type: "mark-next" }
  /** CLEAR RESPONSE: the saved answer is removed (the mark stays). */
  | { type: "clear" }
  /** OMR bubble sheet: every bubble is saved at once. */
  | { type: "answer"; questionId: string; answer: AttemptAnswer }
  /** Saves still queued in this browser: the screen shows them as saved and numbers after them. */
  | { type: "restore"; pending: PendingSave[] }
  /** 'View in': the language shown from now on, told to the server so that a resume keeps it. */
  | { type: "language"; language: "en" | "hi" };

export interface ExamStep {
  state: ExamState;
  effects: ExamEffect[];
  /** Why the action did nothing, in the student's words (shown beside the action bar). */
  notice?: string;
}

export const NEEDS_ANSWER_NOTICE =
  "Choose an answer before SAVE & MARK FOR REVIEW, or use MARK FOR REVIEW & NEXT to mark the question without one.";

/**
 * The screen's state from the server's view of the attempt (a fresh start or a resume): a resume
 * opens at the question the sitting was left at.
 */
export function initialExamState(view: Pick<AttemptView, "sections" | "responses" | "lastSeq" | "resume">): ExamState {
  const position = (view.resume?.questionId && findRef(view.sections, view.resume.questionId)) || {
    section: 0,
    question: 0,
  };
  const state: ExamState = {
    sections: view.sections,
    position,
    lastInSection: view.sections.map((_, index) => (index === position.section ? position.question : 0)),
    saved: { ...view.responses },
    draft: null,
    seq: view.lastSeq,
  };
  return { ...state, draft: savedAnswer(state, currentQuestion(state)._id) };
}

/** An answer with nothing in it (no option, an empty or sign-only number) is no answer. */
export function normalizeAnswer(question: Pick<AttemptQuestion, "type">, answer: AttemptAnswer): AttemptAnswer {
  if (answer === null) return null;
  switch (question.type) {
    case "single":
      return typeof answer === "number" ? answer : null;
    case "multiple": {
      const chosen = Array.isArray(answer) ? answer : typeof answer === "number" ? [answer] : [];
      return chosen.length ? [...new Set(chosen)].sort((a, b) => a - b) : null;
    }
    case "numerical": {
      const typed = typeof answer === "string" ? answer.trim() : typeof answer === "number" ? String(answer) : "";
      return /\d/.test(typed) ? typed : null;
    }
  }
}

export function isAnswered(answer: AttemptAnswer): boolean {
  return answer !== null && !(Array.isArray(answer) && answer.length === 0) && answer !== "";
}

export function questionState(response: SavedResponse | undefined): QuestionState {
  if (!response) return "not-visited";
  const answered = isAnswered(response.answer);
  if (response.markedForReview) return answered ? "answered-marked" : "marked";
  if (answered) return "answered";
  return response.visited ? "not-answered" : "not-visited";
}

/** Whether a question in this state is marked: Answered and Answered & Marked for Review both are. */
export function isEvaluated(state: QuestionState): boolean {
  return state === "answered" || state === "answered-marked";
}

export function currentQuestion(state: ExamState): AttemptQuestion {
  return state.sections[state.position.section].questions[state.position.question];
}

export function stateOf(state: ExamState, questionId: string): QuestionState {
  return questionState(state.saved[questionId]);
}

export type StateCounts = Record<QuestionState, number>;

/** Live counts of the five states in one section (the legend and the section tab's hover). */
export function sectionCounts(state: Pick<ExamState, "sections" | "saved">, section: number): StateCounts {
  const counts = Object.fromEntries(QUESTION_STATES.map((s) => [s, 0])) as StateCounts;
  for (const question of state.sections[section].questions) counts[questionState(state.saved[question._id])] += 1;
  return counts;
}

export interface SummaryRow {
  section: string;
  questions: number;
  counts: StateCounts;
}

/** The submit dialog's table: one row per section. */
export function submitSummary(state: Pick<ExamState, "sections" | "saved">): SummaryRow[] {
  return state.sections.map((section, index) => ({
    section: section.name,
    questions: section.questions.length,
    counts: sectionCounts(state, index),
  }));
}

/** Questions are numbered through the whole paper, as on the NTA screen and the OMR sheet. */
export function questionNumber(sections: AttemptSection[], ref: QuestionRef): number {
  let before = 0;
  for (let s = 0; s < ref.section; s++) before += sections[s].questions.length;
  return before + ref.question + 1;
}

export function isFirstQuestion(state: ExamState): boolean {
  return state.position.section === 0 && state.position.question === 0;
}

export function isLastQuestion(state: ExamState): boolean {
  const last = state.sections.length - 1;
  return state.position.section === last && state.position.question === state.sections[last].questions.length - 1;
}

/** The question after `ref`: the next section's first after a section's last; none after the paper's last. */
function following(sections: AttemptSection[], ref: QuestionRef): QuestionRef | null {
  if (ref.question + 1 < sections[ref.section].questions.length) return { ...ref, question: ref.question + 1 };
  for (let s = ref.section + 1; s < sections.length; s++)
    if (sections[s].questions.length) return { section: s, question: 0 };
  return null;
}

function preceding(sections: AttemptSection[], ref: QuestionRef): QuestionRef | null {
  if (ref.question > 0) return { ...ref, question: ref.question - 1 };
  for (let s = ref.section - 1; s >= 0; s--)
    if (sections[s].questions.length) return { section: s, question: sections[s].questions.length - 1 };
  return null;
}

function savedAnswer(state: ExamState, questionId: string): AttemptAnswer {
  return state.saved[questionId]?.answer ?? null;
}

function sameAnswer(a: AttemptAnswer, b: AttemptAnswer): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => x === b[i]);
  return a === b;
}

/** Builds a step's effects with consecutive sequence numbers. */
class Effects {
  readonly list: ExamEffect[] = [];
  seq: number;
  constructor(seq: number) {
    this.seq = seq;
  }
  save(questionId: string, answer: AttemptAnswer, markedForReview: boolean) {
    this.list.push({ kind: "save", questionId, body: { answer, markedForReview, seq: ++this.seq } });
  }
  event(body: Omit<AttemptEventInput, "seq">) {
    this.list.push({ kind: "event", body: { ...body, seq: ++this.seq } });
  }
}

/** Records a save in the state if it changes what is saved; the question counts as visited. */
function applySave(
  state: ExamState,
  effects: Effects,
  question: AttemptQuestion,
  answer: AttemptAnswer,
  markedForReview: boolean,
): ExamState {
  const normalized = normalizeAnswer(question, answer);
  const before = state.saved[question._id];
  if (before && before.visited && before.markedForReview === markedForReview && sameAnswer(before.answer, normalized))
    return state;
  effects.save(question._id, normalized, markedForReview);
  return {
    ...state,
    saved: { ...state.saved, [question._id]: { answer: normalized, markedForReview, visited: true } },
  };
}

/** Shows `to`: the draft becomes that question's saved answer; the visit (and a section change) is logged. */
function moveTo(state: ExamState, effects: Effects, to: QuestionRef): ExamState {
  const from = state.position;
  if (from.section === to.section && from.question === to.question) return state;
  const section = state.sections[to.section];
  const question = section.questions[to.question];
  if (from.section !== to.section) effects.event({ type: "section-changed", section: section.name });
  const lastInSection = state.lastInSection.with(from.section, from.question);
  return visit({ ...state, position: to, lastInSection, draft: savedAnswer(state, question._id) }, effects);
}

/** Logs the current question as shown (time per question comes from these) and marks it visited. */
function visit(state: ExamState, effects: Effects): ExamState {
  const question = currentQuestion(state);
  effects.event({ type: "visited", questionId: question._id });
  const before = state.saved[question._id];
  if (before?.visited) return state;
  const visited: SavedResponse = {
    answer: before?.answer ?? null,
    markedForReview: before?.markedForReview ?? false,
    visited: true,
  };
  return { ...state, saved: { ...state.saved, [question._id]: visited } };
}

function validRef(state: ExamState, ref: QuestionRef): boolean {
  return (
    ref.section >= 0 &&
    ref.section < state.sections.length &&
    ref.question >= 0 &&
    ref.question < state.sections[ref.section].questions.length
  );
}

/** One step of the screen: the new state and the calls to make, in order. */
export function examStep(state: ExamState, action: ExamAction): ExamStep {
  if (action.type === "save" && action.mark && !isAnswered(normalizeAnswer(currentQuestion(state), state.draft)))
    return { state, effects: [], notice: NEEDS_ANSWER_NOTICE };
  const effects = new Effects(state.seq);
  const next = reduce(state, action, effects);
  if (next === state && effects.seq === state.seq) return { state, effects: [] };
  return { state: { ...next, seq: effects.seq }, effects: effects.list };
}

function reduce(state: ExamState, action: ExamAction, effects: Effects): ExamState {
  const question = currentQuestion(state);
  switch (action.type) {
    case "open":
      if (action.resumed) effects.event({ type: "resumed" });
      return visit(state, effects);
    case "draft":
      return { ...state, draft: action.answer };
    case "go":
      return validRef(state, action.to) ? moveTo(state, effects, action.to) : state;
    case "section": {
      if (action.section === state.position.section || !state.sections[action.section]?.questions.length) return state;
      return moveTo(state, effects, { section: action.section, question: state.lastInSection[action.section] });
    }
    case "back": {
      const to = preceding(state.sections, state.position);
      return to ? moveTo(state, effects, to) : state;
    }
    case "next": {
      const to = following(state.sections, state.position);
      return to ? moveTo(state, effects, to) : state;
    }
    case "save": {
      const saved = applySave(state, effects, question, state.draft, action.mark);
      const withDraft = { ...saved, draft: saved.saved[question._id]?.answer ?? null };
      const to = action.then === "next" ? following(state.sections, state.position) : null;
      return to ? moveTo(withDraft, effects, to) : withDraft;
    }
    case "mark-next": {
      const marked = applySave(state, effects, question, state.draft, true);
      const withDraft = { ...marked, draft: savedAnswer(marked, question._id) };
      const to = following(state.sections, state.position);
      return to ? moveTo(withDraft, effects, to) : withDraft;
    }
    case "clear": {
      const mark = state.saved[question._id]?.markedForReview ?? false;
      const cleared =
        savedAnswer(state, question._id) === null ? state : applySave(state, effects, question, null, mark);
      return { ...cleared, draft: null };
    }
    case "answer": {
      const target = findQuestion(state.sections, action.questionId);
      if (!target) return state;
      const answered = applySave(state, effects, target, action.answer, false);
      return target._id === question._id ? { ...answered, draft: savedAnswer(answered, question._id) } : answered;
    }
    case "language":
      effects.event({ type: "language", language: action.language });
      return state;
    case "restore": {
      let saved = state.saved;
      let seq = state.seq;
      for (const pending of [...action.pending].sort((a, b) => a.body.seq - b.body.seq)) {
        if (!findQuestion(state.sections, pending.questionId)) continue;
        saved = {
          ...saved,
          [pending.questionId]: {
            answer: pending.body.answer,
            markedForReview: pending.body.markedForReview,
            visited: true,
          },
        };
        seq = Math.max(seq, pending.body.seq);
      }
      effects.seq = seq;
      const restored = { ...state, saved };
      return { ...restored, draft: savedAnswer(restored, question._id) };
    }
  }
}

export function findQuestion(sections: AttemptSection[], questionId: string): AttemptQuestion | undefined {
  for (const section of sections)
    for (const question of section.questions) if (question._id === questionId) return question;
  return undefined;
}

/** Where a question is in the paper. */
export function findRef(sections: AttemptSection[], questionId: string): QuestionRef | undefined {
  for (const [section, { questions }] of sections.entries()) {
    const question = questions.findIndex((q) => q._id === questionId);
    if (question >= 0) return { section, question };
  }
  return undefined;
}
