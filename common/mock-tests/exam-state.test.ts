import { describe, expect, it } from "vitest";
import type { AttemptSection, AttemptView } from "./attempt.ts";
import { NTA_MARKING } from "./marking.ts";
import {
  examStep,
  initialExamState,
  isEvaluated,
  normalizeAnswer,
  questionNumber,
  questionState,
  sectionCounts,
  stateOf,
  submitSummary,
  type ExamAction,
  type ExamState,
} from "./exam-state.ts";

const single = (id: string) => ({ _id: id, type: "single" as const, text: id, options: ["a", "b", "c", "d"] });
const numerical = (id: string) => ({ _id: id, type: "numerical" as const, text: id });

/** Physics A (p1–p3, single), Physics B (p4–p5, numerical), Chemistry A (c1–c2, single). */
const sections: AttemptSection[] = [
  { name: "Physics Section A", marking: { single: NTA_MARKING }, questions: ["p1", "p2", "p3"].map(single) },
  { name: "Physics Section B", marking: { numerical: NTA_MARKING }, questions: ["p4", "p5"].map(numerical) },
  { name: "Chemistry Section A", marking: { single: NTA_MARKING }, questions: ["c1", "c2"].map(single) },
];

const view = (over: Partial<AttemptView> = {}) => ({ sections, responses: {}, lastSeq: 0, ...over });

/** Runs actions in order and collects every effect. */
function run(state: ExamState, ...actions: ExamAction[]) {
  const effects = [];
  for (const action of actions) {
    const step = examStep(state, action);
    state = step.state;
    effects.push(...step.effects);
  }
  return { state, effects };
}

const opened = (over: Partial<AttemptView> = {}) =>
  run(initialExamState(view(over)), { type: "open", resumed: false }).state;

describe("the test screen's state", () => {
  it("starts at the first question with nothing visited, numbering after the server's last seq", () => {
    const state = initialExamState(view({ lastSeq: 7 }));
    expect(state.position).toEqual({ section: 0, question: 0 });
    expect(state.draft).toBeNull();
    expect(state.seq).toBe(7);
    expect(submitSummary(state).map((row) => row.counts["not-visited"])).toEqual([3, 2, 2]);
  });

  it("logs the first question as visited when the screen opens, and a resume before it", () => {
    const fresh = run(initialExamState(view()), { type: "open", resumed: false });
    expect(fresh.effects).toEqual([{ kind: "event", body: { type: "visited", questionId: "p1", seq: 1 } }]);
    expect(stateOf(fresh.state, "p1")).toBe("not-answered");

    const resumed = run(initialExamState(view({ lastSeq: 40 })), { type: "open", resumed: true });
    expect(resumed.effects.map((e) => e.body)).toEqual([
      { type: "resumed", seq: 41 },
      { type: "visited", questionId: "p1", seq: 42 },
    ]);
    expect(resumed.state.seq).toBe(42);
  });

  it("resumes with the server's saved answers on the palette and on screen", () => {
    const state = initialExamState(
      view({
        lastSeq: 12,
        responses: {
          p1: { answer: 2, markedForReview: false, visited: true },
          p2: { answer: null, markedForReview: true, visited: true },
          p3: { answer: 1, markedForReview: true, visited: true },
          p4: { answer: null, markedForReview: false, visited: true },
        },
      }),
    );
    expect(state.draft).toBe(2);
    expect(["p1", "p2", "p3", "p4", "p5"].map((id) => stateOf(state, id))).toEqual([
      "answered",
      "marked",
      "answered-marked",
      "not-answered",
      "not-visited",
    ]);
  });

  it("does not save an option picked before clicking another palette number", () => {
    const { state, effects } = run(
      opened(),
      { type: "draft", answer: 3 },
      { type: "go", to: { section: 0, question: 2 } },
    );
    expect(effects.filter((e) => e.kind === "save")).toEqual([]);
    expect(effects.map((e) => e.body)).toEqual([{ type: "visited", questionId: "p3", seq: 2 }]);
    expect(stateOf(state, "p1")).toBe("not-answered");
    const back = run(state, { type: "go", to: { section: 0, question: 0 } }).state;
    expect(back.draft).toBeNull();
  });

  it("keeps the previously saved answer when a changed option is left unsaved", () => {
    let { state } = run(opened(), { type: "draft", answer: 1 }, { type: "save", mark: false, then: "next" });
    ({ state } = run(
      state,
      { type: "go", to: { section: 0, question: 0 } },
      { type: "draft", answer: 3 },
      { type: "next" },
    ));
    expect(state.saved.p1.answer).toBe(1);
    expect(run(state, { type: "back" }).state.draft).toBe(1);
  });

  it("SAVE & NEXT saves the answer with the next seq and shows the next question", () => {
    const { state, effects } = run(opened(), { type: "draft", answer: 2 }, { type: "save", mark: false, then: "next" });
    expect(effects).toEqual([
      { kind: "save", questionId: "p1", body: { answer: 2, markedForReview: false, seq: 2 } },
      { kind: "event", body: { type: "visited", questionId: "p2", seq: 3 } },
    ]);
    expect(state.position).toEqual({ section: 0, question: 1 });
    expect(stateOf(state, "p1")).toBe("answered");
    expect(isEvaluated(stateOf(state, "p1"))).toBe(true);
  });

  it("SAVE & NEXT on a section's last question moves to the next section's first", () => {
    const atLast = run(opened(), { type: "go", to: { section: 0, question: 2 } }).state;
    const { state, effects } = run(atLast, { type: "draft", answer: 0 }, { type: "save", mark: false, then: "next" });
    expect(state.position).toEqual({ section: 1, question: 0 });
    expect(effects.map((e) => e.body)).toEqual([
      { answer: 0, markedForReview: false, seq: 3 },
      { type: "section-changed", section: "Physics Section B", seq: 4 },
      { type: "visited", questionId: "p4", seq: 5 },
    ]);
  });

  it("SAVE & NEXT on the paper's last question saves and stays", () => {
    const atEnd = run(opened(), { type: "go", to: { section: 2, question: 1 } }).state;
    const { state, effects } = run(atEnd, { type: "draft", answer: 1 }, { type: "save", mark: false, then: "next" });
    expect(state.position).toEqual({ section: 2, question: 1 });
    expect(effects.map((e) => e.kind)).toEqual(["save"]);
    expect(state.draft).toBe(1);
  });

  it("SAVE & NEXT with nothing chosen leaves the question Not Answered and sends nothing new", () => {
    const { state, effects } = run(opened(), { type: "save", mark: false, then: "next" });
    expect(effects.map((e) => e.kind)).toEqual(["event"]);
    expect(stateOf(state, "p1")).toBe("not-answered");
  });

  it("does not send a save that changes nothing", () => {
    let { state } = run(opened(), { type: "draft", answer: 2 }, { type: "save", mark: false, then: "next" });
    const { effects } = run(state, { type: "back" }, { type: "save", mark: false, then: "next" });
    expect(effects.filter((e) => e.kind === "save")).toEqual([]);
    ({ state } = run(state, { type: "back" }, { type: "save", mark: true, then: "next" }));
    expect(stateOf(state, "p1")).toBe("answered-marked");
  });

  it("SAVE & MARK FOR REVIEW needs an answer on screen; with one the question is Answered & Marked", () => {
    const start = opened();
    const empty = examStep(start, { type: "save", mark: true, then: "next" });
    expect(empty.state).toBe(start);
    expect(empty.effects).toEqual([]);
    expect(empty.notice).toMatch(/^Choose an answer before SAVE & MARK FOR REVIEW/);

    const { state, effects } = run(start, { type: "draft", answer: 3 }, { type: "save", mark: true, then: "next" });
    expect(effects[0]).toEqual({ kind: "save", questionId: "p1", body: { answer: 3, markedForReview: true, seq: 2 } });
    expect(stateOf(state, "p1")).toBe("answered-marked");
    expect(isEvaluated("answered-marked")).toBe(true);
    expect(state.position).toEqual({ section: 0, question: 1 });
  });

  it("MARK FOR REVIEW & NEXT marks the question, saving the answer on screen if there is one", () => {
    const bare = run(opened(), { type: "mark-next" });
    expect(bare.effects[0]).toEqual({
      kind: "save",
      questionId: "p1",
      body: { answer: null, markedForReview: true, seq: 2 },
    });
    expect(stateOf(bare.state, "p1")).toBe("marked");
    expect(isEvaluated("marked")).toBe(false);
    expect(bare.state.position).toEqual({ section: 0, question: 1 });

    const withAnswer = run(bare.state, { type: "draft", answer: 0 }, { type: "mark-next" });
    expect(stateOf(withAnswer.state, "p2")).toBe("answered-marked");
  });

  it("SAVE & NEXT on a marked question takes the mark off", () => {
    const { state } = run(
      opened(),
      { type: "draft", answer: 0 },
      { type: "mark-next" },
      { type: "back" },
      { type: "save", mark: false, then: "next" },
    );
    expect(stateOf(state, "p1")).toBe("answered");
  });

  it("CLEAR RESPONSE removes the saved answer and keeps the mark", () => {
    const marked = run(opened(), { type: "draft", answer: 1 }, { type: "save", mark: true, then: "stay" }).state;
    expect(stateOf(marked, "p1")).toBe("answered-marked");
    const { state, effects } = run(marked, { type: "clear" });
    expect(effects).toEqual([
      { kind: "save", questionId: "p1", body: { answer: null, markedForReview: true, seq: 3 } },
    ]);
    expect(stateOf(state, "p1")).toBe("marked");
    expect(state.draft).toBeNull();

    const answered = run(
      opened(),
      { type: "draft", answer: 1 },
      { type: "save", mark: false, then: "stay" },
      { type: "clear" },
    );
    expect(stateOf(answered.state, "p1")).toBe("not-answered");
  });

  it("CLEAR RESPONSE with nothing saved only clears the screen", () => {
    const { state, effects } = run(opened(), { type: "draft", answer: 2 }, { type: "clear" });
    expect(effects).toEqual([]);
    expect(state.draft).toBeNull();
  });

  it("BACK and NEXT move without saving, across sections, and stop at the ends", () => {
    const start = opened();
    expect(examStep(start, { type: "back" }).effects).toEqual([]);
    const crossed = run(start, { type: "go", to: { section: 1, question: 0 } }, { type: "back" });
    expect(crossed.state.position).toEqual({ section: 0, question: 2 });
    const end = run(start, { type: "go", to: { section: 2, question: 1 } }).state;
    expect(examStep(end, { type: "next" }).state).toBe(end);
    const moved = run(start, { type: "draft", answer: 1 }, { type: "next" });
    expect(moved.effects.filter((e) => e.kind === "save")).toEqual([]);
    expect(moved.state.position).toEqual({ section: 0, question: 1 });
  });

  it("a section tab opens the section where the student left it", () => {
    const { state, effects } = run(
      opened(),
      { type: "go", to: { section: 0, question: 2 } },
      { type: "section", section: 2 },
      { type: "section", section: 0 },
    );
    expect(state.position).toEqual({ section: 0, question: 2 });
    expect(effects.filter((e) => e.kind === "event" && e.body.type === "section-changed").map((e) => e.body)).toEqual([
      { type: "section-changed", section: "Chemistry Section A", seq: 3 },
      { type: "section-changed", section: "Physics Section A", seq: 5 },
    ]);
    expect(examStep(state, { type: "section", section: 0 }).effects).toEqual([]);
  });

  it("numbers every call with one increasing seq", () => {
    const { effects } = run(
      initialExamState(view({ lastSeq: 100 })),
      { type: "open", resumed: true },
      { type: "draft", answer: 1 },
      { type: "save", mark: false, then: "next" },
      { type: "mark-next" },
      { type: "save", mark: false, then: "next" },
      { type: "draft", answer: "-3.5" },
      { type: "save", mark: false, then: "next" },
      { type: "clear" },
    );
    expect(effects.map((e) => e.body.seq)).toEqual(effects.map((_, i) => 101 + i));
  });

  it("counts the five states per section and builds the submit summary", () => {
    const { state } = run(
      opened(),
      { type: "draft", answer: 1 },
      { type: "save", mark: false, then: "next" }, // p1 answered
      { type: "mark-next" }, // p2 marked
      { type: "draft", answer: 2 },
      { type: "save", mark: true, then: "next" }, // p3 answered & marked
      { type: "draft", answer: "12.5" },
      { type: "save", mark: false, then: "next" }, // p4 answered; p5 visited
    );
    expect(sectionCounts(state, 0)).toEqual({
      "not-visited": 0,
      "not-answered": 0,
      answered: 1,
      marked: 1,
      "answered-marked": 1,
    });
    expect(submitSummary(state)).toEqual([
      {
        section: "Physics Section A",
        questions: 3,
        counts: { "not-visited": 0, "not-answered": 0, answered: 1, marked: 1, "answered-marked": 1 },
      },
      {
        section: "Physics Section B",
        questions: 2,
        counts: { "not-visited": 0, "not-answered": 1, answered: 1, marked: 0, "answered-marked": 0 },
      },
      {
        section: "Chemistry Section A",
        questions: 2,
        counts: { "not-visited": 2, "not-answered": 0, answered: 0, marked: 0, "answered-marked": 0 },
      },
    ]);
  });

  it("saves an OMR bubble at once, and unfilling it clears the answer", () => {
    const start = initialExamState(view());
    const filled = run(start, { type: "answer", questionId: "c2", answer: 3 });
    expect(filled.effects).toEqual([
      { kind: "save", questionId: "c2", body: { answer: 3, markedForReview: false, seq: 1 } },
    ]);
    expect(stateOf(filled.state, "c2")).toBe("answered");
    expect(examStep(filled.state, { type: "answer", questionId: "c2", answer: 3 }).effects).toEqual([]);
    const cleared = run(filled.state, { type: "answer", questionId: "c2", answer: null });
    expect(cleared.effects[0].body).toEqual({ answer: null, markedForReview: false, seq: 2 });
    expect(examStep(start, { type: "answer", questionId: "nope", answer: 1 }).effects).toEqual([]);
  });

  it("shows saves still queued in this browser as saved and numbers new calls after them", () => {
    const start = initialExamState(
      view({ lastSeq: 10, responses: { p1: { answer: 0, markedForReview: false, visited: true } } }),
    );
    const { state } = run(start, {
      type: "restore",
      pending: [
        { questionId: "p1", body: { answer: 2, markedForReview: true, seq: 14 } },
        { questionId: "p4", body: { answer: "9.81", markedForReview: false, seq: 12 } },
      ],
    });
    expect(state.draft).toBe(2);
    expect(stateOf(state, "p1")).toBe("answered-marked");
    expect(stateOf(state, "p4")).toBe("answered");
    expect(state.seq).toBe(14);
    expect(run(state, { type: "open", resumed: true }).effects[0].body.seq).toBe(15);
  });

  it("numbers questions through the whole paper", () => {
    expect(questionNumber(sections, { section: 0, question: 0 })).toBe(1);
    expect(questionNumber(sections, { section: 1, question: 1 })).toBe(5);
    expect(questionNumber(sections, { section: 2, question: 0 })).toBe(6);
  });

  it("treats an empty answer as none", () => {
    expect(normalizeAnswer({ type: "numerical" }, "-")).toBeNull();
    expect(normalizeAnswer({ type: "numerical" }, " -0.5 ")).toBe("-0.5");
    expect(normalizeAnswer({ type: "multiple" }, [3, 1, 3])).toEqual([1, 3]);
    expect(normalizeAnswer({ type: "multiple" }, [])).toBeNull();
    expect(questionState({ answer: [], markedForReview: true, visited: true })).toBe("marked");
    expect(questionState(undefined)).toBe("not-visited");
  });
});

describe("a resumed sitting (issue 38 §5)", () => {
  it("opens at the question it was left at, with that section's tab there", () => {
    const state = initialExamState(view({ resume: { questionId: "p5", language: "hi" } }));
    expect(state.position).toEqual({ section: 1, question: 1 });
    expect(state.lastInSection).toEqual([0, 1, 0]);
    const { effects } = run(state, { type: "open", resumed: true });
    expect(effects.map((e) => e.body)).toEqual([
      { type: "resumed", seq: 1 },
      { type: "visited", questionId: "p5", seq: 2 },
    ]);
  });

  it("opens at the first question when the place is unknown or no longer in the paper", () => {
    expect(initialExamState(view({ resume: { questionId: "gone", language: null } })).position).toEqual({
      section: 0,
      question: 0,
    });
  });

  it("tells the server a language change, numbered with the other calls", () => {
    const { state, effects } = run(initialExamState(view({ lastSeq: 4 })), { type: "language", language: "hi" });
    expect(effects).toEqual([{ kind: "event", body: { type: "language", language: "hi", seq: 5 } }]);
    expect(state.seq).toBe(5);
  });
});
