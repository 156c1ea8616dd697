import type { QuestionType, SectionMarking } from "./marking.ts";
import type { LateSaveJson } from "./late-answers.ts";

/**
 * What the test screen receives and sends (issue 29's API). An attempt carries no keys and no
 * solutions; the browser only shows the server's deadline, it never decides it.
 */

/** A saved answer: an option index (single), option indices (multiple), typed text (numerical), or none. */
export type AttemptAnswer = number | number[] | string | null;

export interface AttemptQuestion {
  _id: string;
  type: QuestionType;
  /** Markdown with $…$ / $$…$$ LaTeX (render with renderMarkdown from ./render.ts). */
  text: string;
  options?: string[];
  hindi?: { text: string; options?: string[] };
}

export interface AttemptSection {
  name: string;
  marking: SectionMarking;
  questions: AttemptQuestion[];
}

/** A question's saved state on the server: what the palette is drawn from after a resume. */
export interface SavedResponse {
  answer: AttemptAnswer;
  markedForReview: boolean;
  visited: boolean;
}

/** The screen's mode: the NTA computer-based screen, NEET's OMR booklet, or practice with solutions. */
export type AttemptMode = "cbt" | "omr" | "practice";

export interface AttemptView {
  _id: string;
  testId: string;
  title: string;
  mode: AttemptMode;
  durationMinutes: number;
  /** ISO time at which the server submits the attempt (start + duration + extra time, capped by the window). */
  deadline: string;
  /** The server's clock when this view was made: the screen counts down from deadline − serverNow. */
  serverNow: string;
  status: "in-progress" | "submitted";
  sections: AttemptSection[];
  /** Saved state by question id; a question missing here is Not Visited. */
  responses: Record<string, SavedResponse>;
  /** The newest sequence number the server has taken; the next change is sent with a larger one. */
  lastSeq: number;
  /**
   * Where the sitting was left: the question last shown and the language chosen, as the server
   * last heard them (null before the screen has said).
   */
  resume?: { questionId: string | null; language: "en" | "hi" | null };
  /** Minutes left at which the screen warns (default 30, 15, 5). */
  alertMinutes: number[];
  candidate: { name: string; avatarUrl?: string | null };
}

/** `PUT /api/attempts/{id}/responses/{questionId}`: an older seq than the newest saved is ignored. */
export interface ResponseSave {
  answer: AttemptAnswer;
  markedForReview: boolean;
  seq: number;
  /** When it was made, in the server's clock as the screen keeps it (ISO); set as the save is queued. */
  answeredAt?: string;
}

/**
 * The answer to a save: `saved: false` when the server already holds a newer seq. The deadline and the
 * server's clock, when sent, let an open screen follow extra time granted during the test.
 */
export interface ResponseSaveResult {
  saved: boolean;
  seq: number;
  deadline?: string;
  serverNow?: string;
  /** A save that arrived after the deadline: what was decided and why (issue 38 §2). */
  late?: LateSaveJson;
}

/**
 * `POST /api/attempts/{id}/submit`'s body: the student's Yes, or the screen's clock at zero (the event
 * log tells them apart). A server whose deadline is later than the screen thought (extra time) answers
 * the clock's submit with 409 and `{deadline, serverNow}` instead of submitting.
 */
export interface AttemptSubmitInput {
  by: "student" | "clock";
}

/** `POST /api/attempts/{id}/events`: what the screen did, for the attempt's journey and time per question. */
export type AttemptEventType = "visited" | "section-changed" | "resumed" | "language";
export interface AttemptEventInput {
  type: AttemptEventType;
  /** "language" events: the language shown from now on. */
  language?: "en" | "hi";
  questionId?: string;
  section?: string;
  seq: number;
}

/** Practice mode: `GET /api/attempts/{id}/questions/{questionId}/solution` after the answer is saved. */
export interface PracticeSolution {
  correctAnswer: AttemptAnswer | { value: number; tolerance?: number } | { min: number; max: number } | number[];
  solution: string | null;
  /** The saved answer and how it is judged (as the result will): a wrong choice is shown as wrong. */
  answer?: AttemptAnswer;
  outcome?: "correct" | "partial" | "incorrect" | "unanswered" | "dropped" | "not-evaluated";
}
