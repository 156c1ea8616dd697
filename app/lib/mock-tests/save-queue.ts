import type { AttemptEventInput, ResponseSave, ResponseSaveResult } from "#common/mock-tests/attempt.ts";
import type { LateSaveJson } from "#common/mock-tests/late-answers.ts";

/**
 * Sends the test screen's saves and events to the server (mock-tests.md §3: "every change is saved
 * within seconds"). Each call goes at once, one at a time in seq order, so a server that keeps the
 * newest seq per attempt never sees a newer call before an older one. What could not be sent stays
 * in a queue kept in localStorage under the attempt's key, is retried with growing pauses and at
 * once when the browser comes back online, and is sent first after a reload. A pending save is
 * replaced by a newer save of the same question. Each save carries when it was made (server clock),
 * so one that arrives after the deadline is judged by it; a refused late save (409 or 422 with the
 * server's `late` reason) is dropped and the rest go on. Any other 409 means the sitting is closed:
 * nothing more can be saved, so the queue stops and says so; an event refused so is dropped instead, so
 * that the saves queued behind it are still sent. An event the server will not log (its log for the
 * sitting is full, 413, or busy this minute, 429) is dropped, never retried: events are the
 * sitting's journey, not its answers, and the saves queued behind it must go on.
 */

export type QueueItem =
  { kind: "save"; questionId: string; body: ResponseSave } | { kind: "event"; body: AttemptEventInput };

export type SaveStatus =
  | { kind: "saved" }
  | { kind: "saving"; answers: number }
  /** The network failed: the answers wait for the connection. */
  | { kind: "offline"; answers: number }
  /** The server failed (5xx, 429, no answer in time): the answers are tried again shortly. */
  | { kind: "retrying"; answers: number }
  /** The session ended (401): the answers are kept until the student signs in again. */
  | { kind: "signed-out"; answers: number }
  /** The server refused a save after the deadline (409). */
  | { kind: "closed" };

const answers = (n: number) => (n === 1 ? "1 answer" : `${n} answers`);

/** The status line beside the clock, in the student's words. */
export function saveStatusText(status: SaveStatus): string {
  switch (status.kind) {
    case "saved":
      return "All answers saved";
    case "saving":
      return "Saving…";
    case "offline":
      return status.answers
        ? `Offline — ${answers(status.answers)} will be sent when you reconnect`
        : "Offline — all answers are saved; reconnecting…";
    case "retrying":
      return status.answers
        ? `Saving delayed — ${answers(status.answers)} will be sent again in a moment`
        : "Saving delayed — trying again in a moment";
    case "signed-out":
      return `Signed out — ${answers(status.answers)} kept on this device; sign in again to send them`;
    case "closed":
      return "Time is up — answers can no longer be saved";
  }
}

/** What `drain()` rejects with once the server has refused a save after the deadline. */
export class DeadlinePassedError extends Error {
  constructor() {
    super("The test's time is over: the server no longer takes answers");
    this.name = "DeadlinePassedError";
  }
}

type KeyValueStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;
type EventSource = Pick<EventTarget, "addEventListener" | "removeEventListener">;

export interface SaveQueueOptions {
  attemptId: string;
  fetch: typeof fetch;
  /** localStorage in the browser; null where there is none (the queue then lives in memory only). */
  storage: KeyValueStorage | null;
  /** Where the `online` event fires (window); null to retry on the timer only. */
  onlineEvents?: EventSource | null;
  /** Pause before the n-th retry (n from 1), before jitter. */
  retryDelay?: (failures: number) => number;
  /** 0..1; spreads the retries of many candidates after a server restart. */
  random?: () => number;
  /** A request with no answer after this long counts as failed. */
  requestTimeoutMs?: number;
  /** The server's answer to a save (its deadline, when it sends one, may have moved). */
  onSaved?: (result: ResponseSaveResult) => void;
  /** A call the server refused as wrong (400, 403, 404, 422): dropped, since sending it again cannot help. */
  onRejected?: (item: QueueItem, status: number) => void;
  /** The server refused a call after the deadline (409). */
  onClosed?: () => void;
  /** A save that arrived after the deadline, with what the server decided and why (issue 38 §2). */
  onLate?: (item: QueueItem, late: LateSaveJson) => void;
}

export interface SaveQueue {
  /** Begins sending, the calls found in storage first. */
  start(): void;
  /** Stops timers and listeners (the calls still pending stay in storage). */
  stop(): void;
  push(item: QueueItem): void;
  /** Sends now, skipping the pause before the next retry. */
  retryNow(): void;
  /** Resolves when nothing is pending; rejects with DeadlinePassedError after a 409. */
  drain(): Promise<void>;
  status(): SaveStatus;
  subscribe(listener: () => void): () => void;
  /** Saves not yet confirmed by the server: the screen shows them as saved after a reload. */
  pendingSaves(): { questionId: string; body: ResponseSave }[];
  /** The largest seq waiting to be sent (0 if none): new calls must be numbered after it. */
  highestSeq(): number;
}

export const defaultRetryDelay = (failures: number) => Math.min(1000 * 2 ** (failures - 1), 30_000);

export function queueStorageKey(attemptId: string): string {
  return `pathshala.exam-queue.${attemptId}`;
}

const STORED_VERSION = 1;

function isQueueItem(x: unknown): x is QueueItem {
  if (typeof x !== "object" || x === null) return false;
  const item = x as { kind?: unknown; questionId?: unknown; body?: { seq?: unknown } };
  if (typeof item.body !== "object" || item.body === null || !Number.isSafeInteger(item.body.seq)) return false;
  return item.kind === "event" || (item.kind === "save" && typeof item.questionId === "string");
}

function readStored(storage: KeyValueStorage | null, key: string): QueueItem[] {
  try {
    const raw = storage?.getItem(key);
    if (!raw) return [];
    const stored = JSON.parse(raw) as { version?: number; items?: unknown };
    if (stored.version !== STORED_VERSION || !Array.isArray(stored.items)) return [];
    return stored.items.filter(isQueueItem).sort((a, b) => a.body.seq - b.body.seq);
  } catch {
    return [];
  }
}

type Failure = "offline" | "retrying" | "signed-out" | null;

export function createSaveQueue(options: SaveQueueOptions): SaveQueue {
  const {
    attemptId,
    storage,
    onlineEvents = null,
    retryDelay = defaultRetryDelay,
    random = Math.random,
    requestTimeoutMs = 10_000,
  } = options;
  const key = queueStorageKey(attemptId);
  const base = `/api/attempts/${encodeURIComponent(attemptId)}`;

  let pending: QueueItem[] = readStored(storage, key);
  let inFlight: QueueItem | null = null;
  let failures = 0;
  let failure: Failure = null;
  let closed = false;
  let started = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let snapshot: SaveStatus = { kind: "saved" };
  const listeners = new Set<() => void>();
  let waiters: { resolve: () => void; reject: (error: Error) => void }[] = [];

  const all = () => (inFlight ? [inFlight, ...pending] : pending);

  function persist() {
    try {
      if (!storage) return;
      const items = all();
      if (items.length) storage.setItem(key, JSON.stringify({ version: STORED_VERSION, items }));
      else storage.removeItem(key);
    } catch {
      // A full or blocked storage only loses the reload safety net; the calls still go out.
    }
  }

  function computeStatus(): SaveStatus {
    if (closed) return { kind: "closed" };
    const items = all();
    if (!items.length) return { kind: "saved" };
    const count = new Set(items.flatMap((item) => (item.kind === "save" ? [item.questionId] : []))).size;
    return failure ? { kind: failure, answers: count } : { kind: "saving", answers: count };
  }

  function changed() {
    persist();
    const next = computeStatus();
    if (JSON.stringify(next) !== JSON.stringify(snapshot)) snapshot = next;
    for (const listener of listeners) listener();
    if (closed) settle(new DeadlinePassedError());
    else if (!all().length) settle(null);
  }

  function settle(error: Error | null) {
    const current = waiters;
    waiters = [];
    for (const waiter of current) {
      if (error) waiter.reject(error);
      else waiter.resolve();
    }
  }

  function request(item: QueueItem): Promise<Response> {
    const init: RequestInit = {
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(item.body),
      signal: AbortSignal.timeout(requestTimeoutMs),
    };
    return item.kind === "save"
      ? options.fetch(`${base}/responses/${encodeURIComponent(item.questionId)}`, { ...init, method: "PUT" })
      : options.fetch(`${base}/events`, { ...init, method: "POST" });
  }

  function scheduleRetry(kind: Exclude<Failure, null>) {
    failures += 1;
    failure = kind;
    const delay = retryDelay(failures) * (0.75 + 0.5 * random());
    timer = setTimeout(() => {
      timer = null;
      pump();
    }, delay);
  }

  /** Sends one call; answers whether it must be sent again. */
  async function sendOne(item: QueueItem): Promise<boolean> {
    let response: Response;
    try {
      response = await request(item);
    } catch (error) {
      // fetch rejects on a network failure; the AbortSignal timeout rejects with a TimeoutError.
      scheduleRetry((error as Error)?.name === "TimeoutError" ? "retrying" : "offline");
      return true;
    }
    if ((response.status === 409 || response.status === 422) && item.kind === "save") {
      // A save that arrived after the deadline and was refused (made late, after the grace period, a
      // time that cannot be true) is recorded by the server with the reason: the rest still go.
      const body = (await response
        .clone()
        .json()
        .catch(() => null)) as { late?: LateSaveJson } | null;
      if (body?.late) {
        failures = 0;
        failure = null;
        options.onLate?.(item, body.late);
        return false;
      }
    }
    if (response.status === 409 && item.kind === "event") {
      // An event sent after the deadline (the network came back late): the journey misses a step,
      // but the answers queued behind it may still count (issue 38 §2), so they go on.
      options.onRejected?.(item, response.status);
      return false;
    }
    if (response.status === 409) {
      closed = true;
      pending = [];
      options.onClosed?.();
      return false;
    }
    if (response.status === 401) {
      scheduleRetry("signed-out");
      return true;
    }
    if (response.status === 429 && item.kind === "event") {
      failures = 0;
      failure = null;
      options.onRejected?.(item, response.status);
      return false;
    }
    if (response.status >= 500 || response.status === 429 || response.status === 408) {
      scheduleRetry("retrying");
      return true;
    }
    failures = 0;
    failure = null;
    if (!response.ok) {
      options.onRejected?.(item, response.status);
      return false;
    }
    if (item.kind === "save" && (options.onSaved || options.onLate)) {
      const result = (await response.json().catch(() => null)) as ResponseSaveResult | null;
      if (result) options.onSaved?.(result);
      if (result?.late) options.onLate?.(item, result.late);
    }
    return false;
  }

  function pump() {
    if (!started || closed || inFlight || timer || !pending.length) return;
    const item = pending.shift()!;
    inFlight = item;
    changed();
    // A throwing callback must not stall the queue: the call itself went through.
    void sendOne(item)
      .catch(() => false)
      .then((again) => {
        inFlight = null;
        // A failed call goes back to the front, unless a newer save of its question has come since.
        if (again && !closed && !pending.some((p) => sameQuestion(p, item))) pending.unshift(item);
        changed();
        pump();
      });
  }

  function sameQuestion(a: QueueItem, b: QueueItem) {
    return a.kind === "save" && b.kind === "save" && a.questionId === b.questionId;
  }

  function retryNow() {
    if (timer) clearTimeout(timer);
    timer = null;
    pump();
  }

  const onOnline = () => retryNow();
  snapshot = computeStatus();

  return {
    start() {
      if (started) return;
      started = true;
      onlineEvents?.addEventListener("online", onOnline);
      changed();
      pump();
    },
    stop() {
      started = false;
      if (timer) clearTimeout(timer);
      timer = null;
      onlineEvents?.removeEventListener("online", onOnline);
    },
    push(item) {
      if (closed) return;
      if (item.kind === "save") pending = pending.filter((p) => !sameQuestion(p, item));
      pending.push(item);
      pending.sort((a, b) => a.body.seq - b.body.seq);
      changed();
      pump();
    },
    retryNow,
    drain() {
      if (closed) return Promise.reject(new DeadlinePassedError());
      if (!all().length) return Promise.resolve();
      return new Promise((resolve, reject) => waiters.push({ resolve, reject }));
    },
    status: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    pendingSaves: () =>
      all().flatMap((item) => (item.kind === "save" ? [{ questionId: item.questionId, body: item.body }] : [])),
    highestSeq: () => Math.max(0, ...all().map((item) => item.body.seq)),
  };
}
