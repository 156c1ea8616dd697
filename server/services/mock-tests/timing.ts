/**
 * Time per question from the attempt's own event log, in server time (mock-tests.md §3: never
 * numbers the browser reports). A question is on screen from the event that shows it ("visited")
 * until the next event that shows another, or until the attempt ends. A gap longer than
 * `pauseAfterMs` between two events is a disconnect: it counts for no question.
 */
export interface TimedEvent {
  type: string;
  questionId: string | null;
  at: Date;
}

export function secondsPerQuestion(
  events: readonly TimedEvent[],
  endedAt: Date,
  pauseAfterMs = 10 * 60 * 1000,
): Map<string, number> {
  const seconds = new Map<string, number>();
  let current: string | null = null;
  let since = 0;
  const close = (until: number) => {
    if (current === null) return;
    const spent = Math.min(Math.max(0, until - since), pauseAfterMs);
    seconds.set(current, (seconds.get(current) ?? 0) + spent / 1000);
  };
  for (const event of events) {
    const at = event.at.getTime();
    if (event.type === "visited" && event.questionId) {
      close(at);
      current = event.questionId;
      since = at;
    } else if (event.type === "resumed") {
      // A resume (after a reconnect, or on another device) closes the stretch before it, so a
      // long absence counts no more than the pause limit.
      close(at);
      since = at;
    }
  }
  close(endedAt.getTime());
  for (const [id, value] of seconds) seconds.set(id, Math.round(value));
  return seconds;
}
