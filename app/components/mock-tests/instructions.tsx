import { useId, useState } from "react";
import { UserRound } from "lucide-react";
import { QUESTION_STATES, QUESTION_STATE_LABELS, type QuestionState } from "#common/mock-tests/exam-state.ts";
import type { QuestionType } from "#common/mock-tests/marking.ts";
import { describeMarking, QUESTION_TYPE_NAMES } from "#common/mock-tests/marking-text.ts";
import { paperTotals, type PaperSummary } from "#common/mock-tests/paper-summary.ts";
import { Button } from "~/components/ui/button";
import { DEFAULT_ALERT_MINUTES } from "~/lib/mock-tests/clock";
import { LANGUAGE_NAMES, type ExamLanguage } from "./question-content";
import { StateShape } from "./state-shape";

const STATE_MEANINGS: Record<QuestionState, string> = {
  "not-visited": "You have not visited the question yet.",
  "not-answered": "You have not answered the question.",
  answered: "You have answered the question.",
  marked: "You have NOT answered the question, but have marked the question for review.",
  "answered-marked": "You have answered the question and marked it for review. It will be considered for evaluation.",
};

function listMinutes(minutes: number[]): string {
  const sorted = [...minutes].sort((a, b) => b - a);
  if (sorted.length < 2) return sorted.join("");
  return `${sorted.slice(0, -1).join(", ")} and ${sorted.at(-1)}`;
}

function Candidate({ candidate, title }: { candidate: { name: string; avatarUrl?: string | null }; title: string }) {
  return (
    <div className="flex items-center gap-4 rounded-lg border bg-muted/40 p-4">
      {candidate.avatarUrl ? (
        <img src={candidate.avatarUrl} alt="" className="size-16 rounded-md object-cover" />
      ) : (
        <span className="flex size-16 items-center justify-center rounded-md bg-muted">
          <UserRound className="size-8 text-muted-foreground" aria-hidden />
        </span>
      )}
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">Candidate</dt>
        <dd className="font-semibold">{candidate.name}</dd>
        <dt className="text-muted-foreground">Test</dt>
        <dd className="font-semibold">{title}</dd>
      </dl>
    </div>
  );
}

/** The first page: the rules of the screen, the same for every paper of a mode. */
export function GeneralInstructions({ paper }: { paper: PaperSummary }) {
  const alerts = paper.alertMinutes?.length ? paper.alertMinutes : DEFAULT_ALERT_MINUTES;
  const omr = paper.mode === "omr";
  const practice = paper.mode === "practice";
  return (
    <div className="grid gap-4 text-sm leading-relaxed">
      <h3 className="font-semibold">General Instructions</h3>
      <ol className="grid list-decimal gap-2 pl-5">
        <li>The total duration of the test is {paper.durationMinutes} minutes.</li>
        <li>
          The clock is set at the server. The countdown timer (Time Left) at the top right of the screen shows the time
          left to complete the test. When it reaches zero, the test is submitted automatically; you do not need to
          submit it yourself. You will be alerted when {listMinutes(alerts)} minutes are left.
        </li>
        <li>
          The clock starts when you click &lsquo;I am ready to begin&rsquo; and keeps running on the server if you close
          the page or lose the connection. Open the test again, on this or another device, to continue with the time
          that is left.
        </li>
        {omr ? (
          <>
            <li>
              The question paper is shown as a booklet that you scroll. Mark your answers on the answer sheet beside it
              (on a phone, under &lsquo;Answer sheet&rsquo;): click a bubble to fill it, click a filled bubble to empty
              it.
            </li>
            <li>Every bubble is saved as soon as you fill or empty it; there is no separate save button.</li>
          </>
        ) : (
          <>
            <li>
              The Question Palette on the right of the screen shows the status of each question with one of these
              symbols:
              <ul className="mt-2 grid gap-2">
                {QUESTION_STATES.map((s) => (
                  <li key={s} className="flex items-center gap-3">
                    <StateShape state={s} className="size-8">
                      1
                    </StateShape>
                    <span>
                      <strong>{QUESTION_STATE_LABELS[s]}</strong>: {STATE_MEANINGS[s]}
                    </span>
                  </li>
                ))}
              </ul>
              <p className="mt-2">
                Marked for Review only shows that you want to look at the question again. A question that is Answered
                &amp; Marked for Review is evaluated; a question Marked for Review without an answer is not.
              </p>
            </li>
            <li>
              You can hide the palette with the arrow at its left edge to see more of the question. On a phone the
              palette opens from the &lsquo;Questions&rsquo; button.
            </li>
          </>
        )}
      </ol>

      {!omr && (
        <>
          <h3 className="font-semibold">Navigating to a question</h3>
          <ol className="grid list-decimal gap-2 pl-5">
            <li>
              Click a question&rsquo;s number in the Question Palette to go to it directly. This does{" "}
              <strong>NOT</strong> save your answer to the current question.
            </li>
            {practice ? (
              <li>
                Click <strong>SAVE &amp; CHECK ANSWER</strong> to save your answer and see the correct answer and the
                solution. An answer cannot be changed after it is checked.
              </li>
            ) : (
              <li>
                Click <strong>SAVE &amp; NEXT</strong> to save your answer to the current question and go to the next
                question. On the last question of a section it takes you to the first question of the next section.
              </li>
            )}
            <li>
              Click <strong>MARK FOR REVIEW &amp; NEXT</strong> to save your answer to the current question (if you have
              chosen one), mark it for review and go to the next question.
            </li>
            <li>
              <strong>BACK</strong> and <strong>NEXT</strong> move to the previous and the next question without saving.
            </li>
          </ol>

          <h3 className="font-semibold">Answering a question</h3>
          <ol className="grid list-decimal gap-2 pl-5">
            <li>
              To choose an option, click it. To unchoose it, click it again or click <strong>CLEAR RESPONSE</strong>. To
              change it, click another option. To save your answer you <strong>MUST</strong> click{" "}
              {practice ? (
                <strong>SAVE &amp; CHECK ANSWER</strong>
              ) : (
                <>
                  <strong>SAVE &amp; NEXT</strong> or <strong>SAVE &amp; MARK FOR REVIEW</strong>
                </>
              )}
              .
            </li>
            <li>
              A numerical answer is typed with the on-screen keypad (0–9, &lsquo;.&rsquo;, &lsquo;−&rsquo;, Backspace,
              Clear All)
              {practice
                ? "; in practice you can also use your keyboard."
                : ". Your keyboard is off for the answer unless you turn it on for accessibility."}
            </li>
            <li>
              <strong>CLEAR RESPONSE</strong> removes the saved answer of the current question.
            </li>
            <li>To change a saved answer, go to the question, choose the new answer and save it again.</li>
          </ol>

          <h3 className="font-semibold">Sections</h3>
          <ol className="grid list-decimal gap-2 pl-5">
            <li>
              The sections are shown across the top of the screen. Click a section&rsquo;s name to see its questions;
              the section you are in is highlighted. Point at a section&rsquo;s name to see how many of its questions
              are in each state.
            </li>
            <li>The &lsquo;Question Paper&rsquo; button shows all the questions of the current section.</li>
            <li>You can move between sections and questions at any time during the test.</li>
          </ol>
        </>
      )}

      <h3 className="font-semibold">Language and saving</h3>
      <ol className="grid list-decimal gap-2 pl-5">
        <li>
          Questions appear in the default language you choose on the next page. A question that has a Hindi version can
          be switched with &lsquo;View in&rsquo;. If the versions differ, the English version is final.
        </li>
        <li>
          Every saved answer is sent to the server at once. If the connection drops, your answers are kept in this
          browser and sent when it is back; the status beside the timer says so.
        </li>
      </ol>
    </div>
  );
}

/** The types whose marking a section's row states: those it holds, or all it marks when its split is not known. */
function markedTypes(section: PaperSummary["sections"][number]): QuestionType[] {
  const held = Object.keys(section.counts) as QuestionType[];
  return held.length ? held : (Object.keys(section.marking) as QuestionType[]);
}

/** The second page: this paper's sections, question types and marking, written out in full. */
export function PaperInstructions({ paper }: { paper: PaperSummary }) {
  const totals = paperTotals(paper);
  return (
    <div className="grid gap-4 text-sm leading-relaxed">
      <h3 className="font-semibold">Other Important Instructions</h3>
      <p>
        This paper has {paper.sections.length} {paper.sections.length === 1 ? "section" : "sections"} and{" "}
        {totals.questions} {totals.questions === 1 ? "question" : "questions"} for {totals.marks} marks, to be answered
        in {paper.durationMinutes} minutes.
      </p>
      {/* Focusable and named so a keyboard can scroll it on a phone (axe, issue 38 §6). */}
      <div className="overflow-x-auto rounded-lg border" tabIndex={0} role="region" aria-label="Sections of the paper">
        <table className="w-full text-left">
          <thead className="bg-muted/60">
            <tr>
              <th scope="col" className="px-3 py-2 font-medium">
                Section
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Questions
              </th>
              <th scope="col" className="px-3 py-2 font-medium">
                Marking
              </th>
            </tr>
          </thead>
          <tbody className="divide-y">
            {paper.sections.map((section) => (
              <tr key={section.name} className="align-top">
                <th scope="row" className="px-3 py-2 font-medium">
                  {section.name}
                </th>
                <td className="px-3 py-2">
                  <ul>
                    {(Object.entries(section.counts) as [QuestionType, number][]).map(([type, count]) => (
                      <li key={type}>
                        {count} × {QUESTION_TYPE_NAMES[type]}
                      </li>
                    ))}
                  </ul>
                </td>
                <td className="px-3 py-2">
                  <ul className="grid gap-1">
                    {markedTypes(section).map((type, _, types) => {
                      const rule = section.marking[type];
                      return (
                        <li key={type}>
                          {types.length > 1 && <strong>{QUESTION_TYPE_NAMES[type]}: </strong>}
                          {rule ? describeMarking(type, rule) : "Not marked."}
                        </li>
                      );
                    })}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>All questions are compulsory unless a section says otherwise. A paper&rsquo;s total can be negative.</p>
    </div>
  );
}

/** The default language, the declaration and 'I am ready to begin', disabled until the declaration is ticked. */
export function ReadyToBegin({
  hasHindi,
  onBegin,
  onPrevious,
  beginning,
  defaultLanguage = "en",
}: {
  hasHindi: boolean;
  onBegin: (language: ExamLanguage) => void;
  onPrevious: () => void;
  beginning?: boolean;
  defaultLanguage?: ExamLanguage;
}) {
  const [language, setLanguage] = useState<ExamLanguage>(hasHindi ? defaultLanguage : "en");
  const [agreed, setAgreed] = useState(false);
  const languageId = useId();
  const declarationId = useId();
  return (
    <div className="grid gap-4 rounded-xl border bg-card p-4 sm:p-6">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <label htmlFor={languageId} className="font-medium">
          Choose your default language
        </label>
        <select
          id={languageId}
          value={language}
          onChange={(event) => setLanguage(event.target.value as ExamLanguage)}
          className="h-10 rounded-md border border-input bg-background px-3"
        >
          {(Object.keys(LANGUAGE_NAMES) as ExamLanguage[]).map((code) => (
            <option key={code} value={code} disabled={code === "hi" && !hasHindi}>
              {LANGUAGE_NAMES[code]}
              {code === "hi" && !hasHindi ? " (not available for this test)" : ""}
            </option>
          ))}
        </select>
        <span className="text-muted-foreground">Questions without a Hindi version are shown in English.</span>
      </div>
      <div className="flex items-start gap-3 text-sm">
        <input
          id={declarationId}
          type="checkbox"
          checked={agreed}
          onChange={(event) => setAgreed(event.target.checked)}
          className="mt-1 size-4 shrink-0"
        />
        <label htmlFor={declarationId}>
          I have read and understood the instructions. I will take this test on my own, without help from anyone and
          without any material that is not allowed. I understand that the time starts when I begin and runs on the
          server until the test ends.
        </label>
      </div>
      <div className="flex flex-wrap justify-between gap-2">
        <Button variant="outline" onClick={onPrevious}>
          Previous
        </Button>
        <Button disabled={!agreed || beginning} onClick={() => onBegin(language)}>
          I am ready to begin
        </Button>
      </div>
    </div>
  );
}

/**
 * The two instruction pages before the test (mock-tests.md §2.1): general, then paper-specific with
 * the default language and the declaration. 'I am ready to begin' stays disabled until the
 * declaration is ticked; no clock runs here.
 */
export function ExamInstructions({
  paper,
  candidate,
  onBegin,
  beginning,
  defaultLanguage = "en",
}: {
  paper: PaperSummary;
  candidate: { name: string; avatarUrl?: string | null };
  onBegin: (language: ExamLanguage) => void;
  /** The attempt is being started: the button waits. */
  beginning?: boolean;
  defaultLanguage?: ExamLanguage;
}) {
  const [page, setPage] = useState<1 | 2>(1);
  return (
    <div className="mx-auto grid max-w-4xl gap-6 p-4 sm:p-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{paper.title}</h1>
        <p className="text-sm text-muted-foreground">Please read the instructions carefully · Page {page} of 2</p>
      </div>
      <Candidate candidate={candidate} title={paper.title} />
      <section className="rounded-xl border bg-card p-4 sm:p-6">
        {page === 1 ? <GeneralInstructions paper={paper} /> : <PaperInstructions paper={paper} />}
      </section>
      {page === 1 ? (
        <div className="flex justify-end">
          <Button onClick={() => setPage(2)}>Next</Button>
        </div>
      ) : (
        <ReadyToBegin
          hasHindi={paper.hasHindi}
          onBegin={onBegin}
          onPrevious={() => setPage(1)}
          beginning={beginning}
          defaultLanguage={defaultLanguage}
        />
      )}
    </div>
  );
}
