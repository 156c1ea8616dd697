import { useEffect, useRef } from "react";
import { createSaveQueue } from "~/lib/mock-tests/save-queue";

/**
 * Answers still kept on this device for a sitting that is over (the screen was closed or reloaded
 * while offline, past the deadline): sent from the result page, where the server judges them as
 * late answers (issue 38 §2), then `onSent` so the page shows what became of them.
 */
export function useKeptAnswers(attemptId: string, onSent: () => void): void {
  const latest = useRef(onSent);
  useEffect(() => {
    latest.current = onSent;
  });
  useEffect(() => {
    let storage: Storage;
    try {
      storage = window.localStorage;
    } catch {
      return;
    }
    const queue = createSaveQueue({
      attemptId,
      fetch: (input, init) => globalThis.fetch(input, init),
      storage,
      onlineEvents: window,
    });
    if (!queue.pendingSaves().length) return;
    let active = true;
    queue.start();
    const done = () => active && latest.current();
    queue.drain().then(done, done);
    return () => {
      active = false;
      queue.stop();
    };
  }, [attemptId]);
}
