/**
 * The test's countdown. The server owns the clock (mock-tests.md §3): the screen counts down the
 * time the server says is left (deadline − the server's now), on the browser's monotonic clock, so
 * neither a wrong system clock nor one changed during the test moves it. Alerts fire once each as
 * their minute marks pass; at zero the screen submits without a dialog.
 */

export const DEFAULT_ALERT_MINUTES = [30, 15, 5];

/** HH:MM:SS, rounded up so that 00:00:00 shows only when the time is over. */
export function formatTimeLeft(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(total / 3600))}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

/** How long the server says is left, from the deadline and the server's clock in the same view. */
export function serverTimeLeft(deadline: string, serverNow: string): number {
  const left = Date.parse(deadline) - Date.parse(serverNow);
  return Number.isFinite(left) ? Math.max(0, left) : 0;
}

/** Alert marks already behind (or at) the time left: a resumed test does not warn about them. */
export function passedAlerts(msLeft: number, alertMinutes: number[]): Set<number> {
  return new Set(alertMinutes.filter((minutes) => minutes * 60_000 >= msLeft));
}

/**
 * The alert to show now, if a mark has been passed since the last check: only the most urgent one
 * when several passed at once (a sleeping tab). Adds every passed mark to `fired`.
 */
export function dueAlert(msLeft: number, alertMinutes: number[], fired: Set<number>): number | null {
  const due = alertMinutes.filter((minutes) => !fired.has(minutes) && msLeft <= minutes * 60_000);
  for (const minutes of due) fired.add(minutes);
  return due.length ? Math.min(...due) : null;
}

export interface ExamClockOptions {
  deadline: string;
  serverNow: string;
  alertMinutes?: number[];
  /** A monotonic clock in milliseconds (performance.now in the browser). */
  now?: () => number;
  onTick?: (msLeft: number) => void;
  onAlert?: (minutesLeft: number) => void;
  /** Called once at zero: the screen submits without asking. */
  onExpire?: () => void;
}

export interface ExamClock {
  start(): void;
  stop(): void;
  /** A new deadline from the server (extra time granted): alerts still ahead fire again. */
  reset(deadline: string, serverNow: string): void;
  msLeft(): number;
  /**
   * The server's clock now, as this screen keeps it (milliseconds since the epoch): what each save
   * is stamped with, so an answer that reaches the server late is judged by when it was made.
   */
  serverNow(): number;
  /** The deadline the clock counts down to (ISO). */
  deadline(): string;
}

export function createExamClock(options: ExamClockOptions): ExamClock {
  const now = options.now ?? (() => performance.now());
  const alertMinutes = options.alertMinutes ?? DEFAULT_ALERT_MINUTES;
  let endsAt = 0;
  let offset = 0;
  let current = options.deadline;
  let fired = new Set<number>();
  let expired = false;
  let running = false;
  let timer: ReturnType<typeof setTimeout> | null = null;

  function set(deadline: string, serverNow: string) {
    const left = serverTimeLeft(deadline, serverNow);
    endsAt = now() + left;
    current = deadline;
    const server = Date.parse(serverNow);
    if (Number.isFinite(server)) offset = server - now();
    fired = passedAlerts(left, alertMinutes);
    expired = false;
  }

  const msLeft = () => Math.max(0, endsAt - now());

  function tick() {
    timer = null;
    if (!running) return;
    const left = msLeft();
    options.onTick?.(left);
    const alert = dueAlert(left, alertMinutes, fired);
    if (alert !== null && left > 0) options.onAlert?.(alert);
    if (left <= 0) {
      if (!expired) {
        expired = true;
        options.onExpire?.();
      }
      return;
    }
    // Wake at the next whole second of the display (a few ms late so the ceiling has moved).
    timer = setTimeout(tick, (left % 1000 || 1000) + 5);
  }

  set(options.deadline, options.serverNow);

  return {
    start() {
      if (running) return;
      running = true;
      tick();
    },
    stop() {
      running = false;
      if (timer) clearTimeout(timer);
      timer = null;
    },
    reset(deadline, serverNow) {
      set(deadline, serverNow);
      if (!running) return;
      if (timer) clearTimeout(timer);
      tick();
    },
    msLeft,
    serverNow: () => now() + offset,
    deadline: () => current,
  };
}
