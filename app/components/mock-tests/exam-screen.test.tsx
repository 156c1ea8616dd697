import { describe, expect, it } from "vitest";
import { renderToString } from "react-dom/server";
import { examStep, initialExamState, submitSummary } from "#common/mock-tests/exam-state.ts";
import { paperSummary } from "#common/mock-tests/paper-summary.ts";
import { ExamScreen } from "./exam-screen";
import { GeneralInstructions, ExamInstructions, PaperInstructions, ReadyToBegin } from "./instructions";
import { QuestionPane } from "./question-pane";
import { sampleAttempt } from "./sample-attempt";
import { SubmitConfirmation } from "./submit-dialog";
import { describeCorrectAnswer, SolutionPanel } from "./solution-panel";
import { SaveStatusLine, TimeAlertBanner } from "./exam-header";

const noop = () => {};
const attempt = sampleAttempt();
const [phyA, phyB] = attempt.sections;

/** The text a reader sees: tags dropped, entities decoded, spaces collapsed. */
function textOf(html: string): string {
  return html
    .replace(/<annotation[\s\S]*?<\/annotation>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, " ")
    .replace(/ ([:.,;])/g, "$1");
}

const screen = (over = {}, props = {}) =>
  renderToString(<ExamScreen attempt={sampleAttempt(over)} onSubmitted={noop} {...props} />);

describe("the computer-based test screen (server render)", () => {
  const html = screen();
  const text = textOf(html);

  it("shows the test, the candidate and 'Time Left' from the server's deadline", () => {
    expect(text).toContain("JEE Main Full Mock Test 1");
    expect(text).toContain("Aarav Sharma");
    expect(text).toContain("Time Left 03:00:00");
    expect(text).toContain("All answers saved");
  });

  it("shows the sections as tabs with their counts for hover", () => {
    for (const name of ["Physics Section A", "Physics Section B", "Chemistry Section A", "Chemistry Section B"])
      expect(text).toContain(name);
    expect(html).toMatch(/role="tooltip"[^>]*>.*?<p[^>]*>Physics Section B<\/p>/);
    expect(text).toContain("2 Not Visited");
  });

  it("shows 'Question No. 1' with its type and marks, the 'View in' switch and math rendered by KaTeX", () => {
    expect(text).toContain("Question No. 1");
    expect(text).toContain("Single correct option");
    expect(text).toContain("Marks: +4 / −1");
    expect(text).toContain("View in");
    expect(html).toContain('<span class="katex">');
    expect(html).toMatch(/type="radio"[^>]*name="answer-q_phy_1"/);
    expect((html.match(/type="radio"/g) ?? []).length).toBe(4);
  });

  it("has the NTA action bar with its exact labels", () => {
    for (const label of [
      "SAVE & NEXT",
      "SAVE & MARK FOR REVIEW",
      "CLEAR RESPONSE",
      "MARK FOR REVIEW & NEXT",
      "BACK",
      "NEXT",
      "SUBMIT",
    ])
      expect(text).toMatch(new RegExp(`(^| )${label.replace(/&/g, "&")}( |$)`));
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>BACK<\/button>/);
  });

  it("has the palette for the current section only, with the legend and accessible names", () => {
    expect(html).toContain('aria-label="Question 1, Not Visited"');
    expect(html).toContain('aria-label="Question 3, Not Visited"');
    expect(html).not.toContain('aria-label="Question 4, ');
    for (const label of [
      "Not Visited",
      "Not Answered",
      "Answered",
      "Marked for Review",
      "Answered & Marked for Review",
    ])
      expect(text).toContain(label);
    expect(text).toContain("Question Paper");
    expect(html).toContain('aria-label="Hide the question palette"');
  });

  it("resumes with the saved states on the palette, each in its shape", () => {
    const resumed = screen({
      lastSeq: 9,
      responses: {
        q_phy_1: { answer: 0, markedForReview: false, visited: true },
        q_phy_2: { answer: null, markedForReview: true, visited: true },
        q_phy_3: { answer: 2, markedForReview: true, visited: true },
      },
    });
    expect(resumed).toContain('aria-label="Question 1, Answered"');
    expect(resumed).toContain('aria-label="Question 2, Marked for Review"');
    expect(resumed).toContain('aria-label="Question 3, Answered &amp; Marked for Review"');
    expect(resumed).toMatch(/type="radio"[^>]*checked=""[^>]*value="0"|value="0"[^>]*checked=""/);
    const button = (n: number) =>
      resumed.match(new RegExp(`aria-label="Question ${n}, [^"]*"[^>]*>([\\s\\S]*?)</button>`))![1];
    expect(button(1)).toContain('data-state="answered"');
    expect(button(3)).toContain('data-state="answered-marked"');
    // The green tick is drawn on Answered & Marked for Review only.
    expect(button(3)).toContain("<svg");
    expect(button(2)).not.toContain("<svg");
  });

  it("shows the Hindi version when Hindi is the default language", () => {
    const hindi = textOf(screen({}, { language: "hi" }));
    expect(hindi).toContain("एक गेंद को वेग");
    expect(textOf(screen())).not.toContain("एक गेंद को वेग");
  });

  it("shows practice mode's check button instead of the two save-and-move buttons", () => {
    const practice = textOf(screen({ mode: "practice" }));
    expect(practice).toContain("SAVE & CHECK ANSWER");
    expect(practice).not.toContain("SAVE & NEXT");
    expect(practice).toContain("MARK FOR REVIEW & NEXT");
  });

  it("says so for a submitted attempt", () => {
    expect(textOf(screen({ status: "submitted" }))).toContain("This test has been submitted.");
  });
});

describe("the question pane", () => {
  const pane = (questionIndex: number, section = phyA, over = {}) =>
    renderToString(
      <QuestionPane
        question={section.questions[questionIndex]}
        number={questionIndex + 1}
        marking={section.marking[section.questions[questionIndex].type]}
        draft={null}
        onDraft={noop}
        language="en"
        onLanguage={noop}
        keyboard={false}
        {...over}
      />,
    );

  it("has no 'View in' switch for a question without a Hindi version", () => {
    expect(textOf(pane(1))).not.toContain("View in");
    expect(textOf(pane(0))).toContain("View in");
  });

  it("gives a numerical question the keypad, with the keyboard off in the exam and on in practice", () => {
    const exam = pane(0, phyB);
    const examText = textOf(exam);
    expect(examText).toContain("Numerical value");
    for (const key of ["Backspace", "Clear All", "0", "1", "9"]) expect(examText).toContain(key);
    expect(exam).toContain('aria-label="Decimal point"');
    expect(exam).toContain('aria-label="Minus"');
    expect(exam).toMatch(/<input[^>]*readOnly=""[^>]*inputMode="none"/);
    expect(examText).toContain("Type with my keyboard (accessibility)");

    const practice = pane(0, phyB, { keyboard: true });
    expect(practice).not.toMatch(/<input[^>]*readOnly=""[^>]*inputMode/);
    expect(practice).toContain('inputMode="decimal"');
  });

  it("shows a typed numerical draft and locks a checked practice answer", () => {
    const locked = pane(0, phyB, { draft: "-12.5", locked: true });
    expect(locked).toContain('value="-12.5"');
    expect(locked).toMatch(/<input[^>]*disabled=""/);
  });
});

describe("the submit dialog", () => {
  it("shows a row per section with the spec's columns, then the exact question with Yes / No", () => {
    let state = initialExamState(attempt);
    for (const action of [
      { type: "open", resumed: false },
      { type: "draft", answer: 1 },
      { type: "save", mark: false, then: "next" },
      { type: "mark-next" },
    ] as const)
      state = examStep(state, action).state;
    const html = renderToString(<SubmitConfirmation rows={submitSummary(state)} onYes={noop} onNo={noop} />);
    const text = textOf(html);
    expect(text).toContain(
      "Section Questions Answered Not Answered Marked for Review Answered & Marked for Review Not Visited",
    );
    expect(text).toContain("Physics Section A 3 1 1 1 0 0");
    expect(text).toContain("Chemistry Section B 1 0 0 0 0 1");
    expect(text).toContain(
      "Are you sure you want to submit for final marking? No changes will be allowed after submission.",
    );
    expect(html).toMatch(/>No<\/button>/);
    expect(html).toMatch(/>Yes<\/button>/);
  });

  it("shows only answered and not answered on the OMR sheet", () => {
    const text = textOf(
      renderToString(
        <SubmitConfirmation rows={submitSummary(initialExamState(attempt))} omr onYes={noop} onNo={noop} />,
      ),
    );
    expect(text).toContain("Section Questions Answered Not Answered Physics Section A 3 0 3");
    expect(text).not.toContain("Marked for Review");
  });
});

describe("the OMR booklet and bubble sheet", () => {
  const html = screen({
    mode: "omr",
    responses: { q_phy_2: { answer: 3, markedForReview: false, visited: true } },
  });

  it("shows every question in the booklet and four bubbles per question on the sheet", () => {
    const text = textOf(html);
    for (const n of [1, 2, 3, 6, 7]) expect(text).toContain(`Question No. ${n}`);
    for (const letter of ["A", "B", "C", "D"]) expect(html).toContain(`aria-label="Question 1, option ${letter}"`);
    expect(html).toContain('aria-pressed="true" aria-label="Question 2, option D"');
    expect(html).toContain('aria-pressed="false" aria-label="Question 2, option A"');
    expect(html).toContain('aria-label="Question 4, your answer"');
    expect(text).toContain("1 of 8 answered");
    expect(text).not.toContain("SAVE & NEXT");
    expect(text).toContain("SUBMIT");
  });
});

describe("the instructions", () => {
  const paper = paperSummary(attempt);

  it("writes out the general rules: duration, the server's clock, the five states, navigation", () => {
    const text = textOf(renderToString(<GeneralInstructions paper={paper} />));
    expect(text).toContain("The total duration of the test is 180 minutes.");
    expect(text).toContain("The clock is set at the server.");
    expect(text).toContain("alerted when 30, 15 and 5 minutes are left");
    expect(text).toContain("Answered & Marked for Review: You have answered the question and marked it for review.");
    expect(text).toContain("This does NOT save your answer to the current question.");
    expect(text).toContain("If the versions differ, the English version is final.");
  });

  it("writes out the paper's sections and marking in full", () => {
    const text = textOf(renderToString(<PaperInstructions paper={paper} />));
    expect(text).toContain("This paper has 4 sections and 8 questions for 32 marks");
    expect(text).toContain("Physics Section A 3 × Single correct option");
    expect(text).toContain("+4 for the correct option, −1 for an incorrect answer, 0 if not answered.");
    expect(text).toContain("+4 for the correct value, −1 for an incorrect answer, 0 if not answered.");
  });

  it("keeps 'I am ready to begin' disabled until the declaration is ticked", () => {
    const html = renderToString(<ReadyToBegin hasHindi onBegin={noop} onPrevious={noop} />);
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>I am ready to begin<\/button>/);
    expect(html).toMatch(/<input[^>]*type="checkbox"(?![^>]*checked)/);
    expect(textOf(html)).toContain("Choose your default language English Hindi");
  });

  it("starts on the general page with the candidate's details and no clock", () => {
    const html = renderToString(<ExamInstructions paper={paper} candidate={attempt.candidate} onBegin={noop} />);
    const text = textOf(html);
    expect(text).toContain("Aarav Sharma");
    expect(text).toContain("General Instructions");
    expect(text).toContain("Page 1 of 2");
    expect(html).not.toContain('role="timer"');
    expect(html).not.toMatch(/<button[^>]*>I am ready to begin/);
  });
});

describe("practice mode's solution", () => {
  it("names the correct answer for each kind of key", () => {
    const [single] = phyA.questions;
    const [numerical] = phyB.questions;
    expect(describeCorrectAnswer(single, 1)).toBe("(B)");
    expect(describeCorrectAnswer({ ...single, type: "multiple" }, [0, 2])).toBe("(A), (C)");
    expect(describeCorrectAnswer(numerical, 9)).toBe("9");
    expect(describeCorrectAnswer(numerical, { value: 4.5, tolerance: 0.1 })).toBe("4.5 ± 0.1");
    expect(describeCorrectAnswer(numerical, { min: 2, max: 3 })).toBe("between 2 and 3");
    expect(describeCorrectAnswer(numerical, [2, 3])).toBe("2 or 3");
  });

  it("shows the correct answer and the rendered solution", () => {
    const html = renderToString(
      <SolutionPanel
        question={phyA.questions[0]}
        state={{ kind: "shown", solution: { correctAnswer: 0, solution: "Use $v^2 = u^2 - 2gh$ with $v = 0$." } }}
      />,
    );
    expect(textOf(html)).toContain("Correct answer: (A)");
    expect(html).toContain('<span class="katex">');
  });
});

describe("status lines", () => {
  it("shows the time alert and an offline queue in the student's words", () => {
    expect(textOf(renderToString(<TimeAlertBanner minutes={15} onDismiss={noop} />))).toContain(
      "15 minutes left. The test is submitted automatically when the time is over.",
    );
    expect(textOf(renderToString(<SaveStatusLine status={{ kind: "offline", answers: 3 }} />))).toContain(
      "Offline — 3 answers will be sent when you reconnect",
    );
  });
});
