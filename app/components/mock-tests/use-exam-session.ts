import { useCallback, useEffect, useRef, useState } from "react";
import type { AttemptSubmitInput, AttemptView, PracticeSolution } from "#common/mock-tests/attempt.ts";
import {
  currentQuestion,
  examStep,
  findRef,
  initialExamState,
  isAnswered,
  type ExamAction,
  type ExamState,
} from "#common/mock-tests/exam-state.ts";
import { createExamClock, serverTimeLeft, type ExamClock } from "~/lib/mock-tests/clock";
import { createSaveQueue, type SaveQueue, type SaveStatus } from "~/lib/mock-tests/save-queue";
import type { ExamLanguage } from "./question-content";
import type { SolutionState } from "./solution-panel";
import type { LateAnswerNoteItem } from "./late-answers-note";

/**
 * Wires the screen's state, the save queue, the clock and the server's submit and solution
 * endpoints. Every action goes through examStep; the calls it names go to the queue, nothing else
 * writes to the server before the submit.
 */

export type SubmitPhase =
  | { kind: "answering" }
  | { kind: "submitting"; by: AttemptSubmitInput["by"]; retrying: boolean }
  | { kind: "failed"; message: string }
  /** With the answers that reached the server after time was up, and what became of them. */
  | { kind: "submitted"; lateAnswers: LateAnswerNoteItem[] };

export interface ExamSession {
  attempt: AttemptView;
  state: ExamState;
  dispatch: (action: ExamAction) => void;
  msLeft: number;
  status: SaveStatus;
  /** The time alert showing (minutes left), if any. */
  alert: number | null;
  dismissAlert: () => void;
  /** Why the last action did nothing (SAVE & MARK FOR REVIEW without an answer). */
  notice: string | null;
  language: ExamLanguage;
  setLanguage: (language: ExamLanguage) => void;
  phase: SubmitPhase;
  /** The student's Yes in the submit dialog. */
  submit: () => void;
  /** Practice mode: the solution of each question checked so far. */
  solutions: Record<string, SolutionState>;
}

export interface ExamSessionOptions {
  attempt: AttemptView;
  onSubmitted: (result: unknown) => void;
  language: ExamLanguage;
  /** The browser's fetch unless a test gives its own. */
  fetch?: typeof fetch;
  /** localStorage unless a test gives its own; null keeps the queue in memory only. */
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null;
}

/** How often an open screen asks the server for its deadline (extra time shows within this). */
export const CLOCK_POLL_MS = 5_000;

const JSON_HEADERS = { "content-type": "application/json", accept: "application/json" };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function browserStorage(): Pick<Storage, "getItem" | "setItem" | "removeItem"> | null {
  try {
    return window.localStorage;
  } catch {
    return null; // blocked (privacy settings): the queue still works, in memory
  }
}

async function errorMessage(response: Response, fallback: string): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: unknown } | null;
  return typeof body?.error === "string" ? body.error : fallback;
}

interface Place {
  questionId: string;
  language: ExamLanguage;
}

const placeKey = (attemptId: string) => `exam-place:${attemptId}`;

function writePlace(storage: ExamSessionOptions["storage"], attemptId: string, place: Place) {
  try {
    storage?.setItem(placeKey(attemptId), JSON.stringify(place));
  } catch {
    // Full or blocked: the server's record still holds the place.
  }
}

function readPlace(storage: ExamSessionOptions["storage"], attemptId: string): Place | null {
  try {
    const place = JSON.parse(storage?.getItem(placeKey(attemptId)) ?? "null") as Partial<Place> | null;
    return typeof place?.questionId === "string" && (place.language === "en" || place.language === "hi")
      ? { questionId: place.questionId, language: place.language }
      : null;
  } catch {
    return null;
  }
}

export function useExamSession(options: ExamSessionOptions): ExamSession {
  const { attempt } = options;
  const [state, setState] = useState(() => initialExamState(attempt));
  const [msLeft, setMsLeft] = useState(() => serverTimeLeft(attempt.deadline, attempt.serverNow));
  const [status, setStatus] = useState<SaveStatus>({ kind: "saved" });
  const [alert, setAlert] = useState<number | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // A resume shows the language the sitting was left in; a fresh start the one chosen on the instructions.
  const [language, setLanguageShown] = useState<ExamLanguage>(attempt.resume?.language ?? options.language);
  const languageRef = useRef(language);
  const [phase, setPhase] = useState<SubmitPhase>({ kind: "answering" });
  const [solutions, setSolutions] = useState<Record<string, SolutionState>>({});

  const stateRef = useRef(state);
  const queueRef = useRef<SaveQueue | null>(null);
  const clockRef = useRef<ExamClock | null>(null);
  const submittingRef = useRef(false);
  const mountedRef = useRef(false);
  const solutionsAskedRef = useRef(new Set<string>());
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });

  // A plain `fetch` reference loses its `this` when called as a property: wrap it.
  const request = useCallback(
    (input: string, init?: RequestInit) => (latest.current.fetch ?? globalThis.fetch)(input, init),
    [],
  );
  const base = `/api/attempts/${encodeURIComponent(attempt._id)}`;

  /** Practice mode: a question with a saved answer shows its solution, once the server has the answer. */
  const loadSolution = useCallback(
    async (questionId: string) => {
      if (solutionsAskedRef.current.has(questionId)) return;
      solutionsAskedRef.current.add(questionId);
      const show = (solution: SolutionState) => setSolutions((all) => ({ ...all, [questionId]: solution }));
      show({ kind: "loading" });
      try {
        await queueRef.current?.drain();
        const response = await request(`${base}/questions/${encodeURIComponent(questionId)}/solution`, {
          headers: { accept: "application/json" },
        });
        if (!response.ok) throw new Error(await errorMessage(response, "The solution could not be loaded."));
        show({ kind: "shown", solution: (await response.json()) as PracticeSolution });
      } catch (error) {
        solutionsAskedRef.current.delete(questionId);
        show({ kind: "error", message: (error as Error).message || "The solution could not be loaded." });
      }
    },
    [base, request],
  );

  const dispatch = useCallback(
    (action: ExamAction) => {
      if (submittingRef.current) return;
      const step = examStep(stateRef.current, action);
      stateRef.current = step.state;
      setState(step.state);
      setNotice(step.notice ?? null);
      // Each save says when it was made in the server's clock: a save that reaches the server after
      // the deadline (the network dropped) is judged by it.
      const answeredAt = new Date(clockRef.current?.serverNow() ?? Date.now()).toISOString();
      for (const effect of step.effects)
        queueRef.current?.push(effect.kind === "save" ? { ...effect, body: { ...effect.body, answeredAt } } : effect);
      const question = currentQuestion(step.state);
      if (attempt.mode === "practice" && isAnswered(step.state.saved[question._id]?.answer ?? null))
        void loadSolution(question._id);
    },
    [attempt.mode, loadSolution],
  );

  const submitAs = useCallback(
    async (by: AttemptSubmitInput["by"]) => {
      if (submittingRef.current) return;
      submittingRef.current = true;
      setPhase({ kind: "submitting", by, retrying: false });
      try {
        await queueRef.current?.drain();
      } catch {
        // The deadline has passed: the server keeps what it took before it and submits that.
      }
      for (let failures = 0; mountedRef.current; failures++) {
        try {
          const response = await request(`${base}/submit`, {
            method: "POST",
            headers: JSON_HEADERS,
            body: JSON.stringify({ by } satisfies AttemptSubmitInput),
          });
          if (response.ok) {
            const { result, lateAnswers } = (await response.json()) as {
              result: unknown;
              lateAnswers?: LateAnswerNoteItem[];
            };
            queueRef.current?.stop();
            clockRef.current?.stop();
            const storage = latest.current.storage === undefined ? browserStorage() : latest.current.storage;
            storage?.removeItem(placeKey(latest.current.attempt._id));
            setPhase({ kind: "submitted", lateAnswers: lateAnswers ?? [] });
            latest.current.onSubmitted(result);
            return;
          }
          if (response.status === 409 && by === "clock") {
            // Extra time was granted: the server's deadline is later than the screen's.
            const body = (await response.json().catch(() => null)) as { deadline?: string; serverNow?: string } | null;
            if (body?.deadline && body.serverNow) {
              submittingRef.current = false;
              setPhase({ kind: "answering" });
              clockRef.current?.reset(body.deadline, body.serverNow);
              return;
            }
          }
          const retryable = response.status >= 500 || [401, 408, 429].includes(response.status);
          if (!retryable) {
            submittingRef.current = false;
            setPhase({ kind: "failed", message: await errorMessage(response, "The test could not be submitted.") });
            return;
          }
        } catch {
          // Offline: try again below.
        }
        setPhase({ kind: "submitting", by, retrying: true });
        await sleep(Math.min(1000 * 2 ** failures, 15_000));
      }
    },
    [base, request],
  );

  const setLanguage = useCallback(
    (next: ExamLanguage) => {
      languageRef.current = next;
      setLanguageShown(next);
      dispatch({ type: "language", language: next });
    },
    [dispatch],
  );

  // The place kept on this device too: a reload while offline has calls the server has not had yet.
  const currentId = currentQuestion(state)._id;
  useEffect(() => {
    const storage = latest.current.storage === undefined ? browserStorage() : latest.current.storage;
    writePlace(storage, attempt._id, { questionId: currentId, language });
  }, [attempt._id, currentId, language]);

  // Runs once per attempt: a parent's re-render with a fresh copy of the same attempt (a loader
  // revalidating) must not restart the queue or the clock, so the view is read through `latest`.
  const attemptId = attempt._id;
  useEffect(() => {
    mountedRef.current = true;
    const view = latest.current.attempt;
    /** The server's deadline (extra time) or clock, when they differ from the screen's by more than jitter. */
    const follow = (deadline: string, serverNow: string) => {
      const clock = clockRef.current;
      if (!clock) return;
      if (deadline !== clock.deadline() || Math.abs(serverTimeLeft(deadline, serverNow) - clock.msLeft()) > 2_000)
        clock.reset(deadline, serverNow);
    };

    const queue = createSaveQueue({
      attemptId,
      fetch: (input, init) => request(input as string, init),
      storage: latest.current.storage === undefined ? browserStorage() : latest.current.storage,
      onlineEvents: window,
      onSaved: (result) => {
        if (result.deadline && result.serverNow) follow(result.deadline, result.serverNow);
      },
      onLate: (item, late) => console.info("An answer reached the server after time was up", late.message, item),
      onRejected: (item, httpStatus) => console.error("The server refused a test call", httpStatus, item),
      // The server took no more saves: the time is over there, whatever the screen's clock says.
      onClosed: () => void submitAs("clock"),
    });
    queueRef.current = queue;
    const unsubscribe = queue.subscribe(() => setStatus(queue.status()));
    const pending = queue.pendingSaves();
    // Calls kept in this browser come first: the screen shows them and numbers new calls after them.
    if (pending.length || queue.highestSeq() > stateRef.current.seq) {
      const restored = examStep(stateRef.current, { type: "restore", pending });
      stateRef.current = { ...restored.state, seq: Math.max(restored.state.seq, queue.highestSeq()) };
    }
    queue.start();
    dispatch({ type: "open", resumed: view.lastSeq > 0 || pending.length > 0 || Boolean(view.resume?.questionId) });
    // Where the sitting was left: the server's record (any device), unless this browser still holds
    // calls it has not sent, which are newer than anything the server has.
    const storage = latest.current.storage === undefined ? browserStorage() : latest.current.storage;
    const local = queue.highestSeq() > 0 ? readPlace(storage, attemptId) : null;
    const localRef = local ? findRef(stateRef.current.sections, local.questionId) : undefined;
    if (localRef) dispatch({ type: "go", to: localRef });
    const language = local?.language ?? languageRef.current;
    if (language !== languageRef.current) {
      languageRef.current = language;
      setLanguageShown(language);
    }
    // A fresh start tells the server the language chosen on the instructions.
    if (language !== view.resume?.language) dispatch({ type: "language", language });

    const clock = createExamClock({
      deadline: view.deadline,
      serverNow: view.serverNow,
      alertMinutes: view.alertMinutes,
      onTick: setMsLeft,
      onAlert: setAlert,
      onExpire: () => void submitAs("clock"),
    });
    clockRef.current = clock;
    clock.start();

    // Extra time granted while no answer is being saved still reaches the screen within seconds.
    const clockPath = `/api/attempts/${encodeURIComponent(attemptId)}/clock`;
    const poll = setInterval(async () => {
      if (submittingRef.current) return;
      try {
        const response = await request(clockPath, {
          headers: { accept: "application/json" },
          signal: AbortSignal.timeout(CLOCK_POLL_MS),
        });
        if (!response.ok) return;
        const body = (await response.json()) as { deadline?: string; serverNow?: string };
        if (body.deadline && body.serverNow && !submittingRef.current) follow(body.deadline, body.serverNow);
      } catch {
        // Offline: the clock goes on as it is; the next poll or save brings the server's.
      }
    }, CLOCK_POLL_MS);

    // A phone that slept: try the queue again as soon as the page is back.
    const onVisible = () => document.visibilityState === "visible" && queue.retryNow();
    document.addEventListener("visibilitychange", onVisible);
    return () => {
      mountedRef.current = false;
      clearInterval(poll);
      document.removeEventListener("visibilitychange", onVisible);
      unsubscribe();
      queue.stop();
      clock.stop();
    };
  }, [attemptId, dispatch, request, submitAs]);

  return {
    attempt,
    state,
    dispatch,
    msLeft,
    status,
    alert,
    dismissAlert: () => setAlert(null),
    notice,
    language,
    setLanguage,
    phase,
    submit: () => void submitAs("student"),
    solutions,
  };
}
