import type { AttendanceStatus, RegisterJson } from "#common/validation/attendance.ts";

/**
 * The register page's saves, kept on the phone until the server has them (issue 41 §3): each
 * Save is queued in localStorage (per session) with its seq, the phone's clock when the marks were
 * taken, and the queue is sent in order; an entry leaves the queue only after the server's 200. The
 * server applies each mark only where it is newer than the student's mark, so sending an entry
 * twice (a 200 lost on the way back) changes nothing.
 */

export interface QueuedMark {
  studentId: string;
  status: AttendanceStatus;
  minutesLate?: number;
}

export interface QueuedSave {
  seq: number;
  marks: QueuedMark[];
}

export type DrainResult =
  /** Everything queued reached the server (`register`: its answer to the last one, if any was sent). */
  | { kind: "sent"; register: RegisterJson | null }
  /** No network: the rest waits for the `online` event. */
  | { kind: "offline"; register: RegisterJson | null }
  /** The server could not take it now (signed out, busy): kept, tried again later. */
  | { kind: "waiting"; message: string; register: RegisterJson | null }
  /** The server refused an entry for good (a closed register, a student not in the batch): dropped. */
  | { kind: "refused"; message: string; register: RegisterJson | null };

type KeyValueStorage = Pick<Storage, "getItem" | "setItem" | "removeItem">;

export const queueKey = (sessionId: string) => `pathshala.register.${sessionId}`;

export class RollCallQueue {
  private readonly key: string;
  private readonly sessionId: string;
  private readonly storage: KeyValueStorage | null;
  private readonly send: typeof fetch;
  private memory: QueuedSave[] = [];
  private running: Promise<DrainResult> | null = null;

  constructor(sessionId: string, storage: KeyValueStorage | null, send: typeof fetch) {
    this.sessionId = sessionId;
    this.storage = storage;
    this.send = send;
    this.key = queueKey(sessionId);
  }

  private readonly listeners = new Set<() => void>();

  /** For useSyncExternalStore: told whenever the queue changes. */
  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  /** The queue as kept (a string, equal while the queue is unchanged). */
  snapshot = (): string => (this.storage ? (this.storage.getItem(this.key) ?? "[]") : JSON.stringify(this.memory));

  pending(): QueuedSave[] {
    try {
      const kept = JSON.parse(this.snapshot()) as unknown;
      return Array.isArray(kept) ? (kept as QueuedSave[]) : [];
    } catch {
      return [];
    }
  }

  /** Queues marks taken now (or at `seq`, the phone's clock in ms); a second save in the same millisecond goes after. */
  enqueue(marks: QueuedMark[], seq = Date.now()): QueuedSave {
    const queue = this.pending();
    const last = queue.at(-1)?.seq ?? 0;
    const entry = { seq: Math.max(seq, last + 1), marks };
    this.write([...queue, entry]);
    return entry;
  }

  /** Sends the queue in order, one entry at a time (a second call waits for the first). */
  drain(): Promise<DrainResult> {
    this.running ??= this.sendAll().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async sendAll(): Promise<DrainResult> {
    let register: RegisterJson | null = null;
    for (;;) {
      const [entry] = this.pending();
      if (!entry) return { kind: "sent", register };
      let res: Response;
      try {
        res = await this.send(`/api/sessions/${this.sessionId}/attendance`, {
          method: "PUT",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(entry),
        });
      } catch {
        return { kind: "offline", register };
      }
      const body = (await res.json().catch(() => null)) as { register?: RegisterJson; error?: string } | null;
      if (res.ok) {
        this.remove(entry.seq);
        register = body?.register ?? register;
        continue;
      }
      const message = body?.error ?? "The marks could not be sent.";
      if (res.status === 401 || res.status === 429 || res.status >= 500) return { kind: "waiting", message, register };
      this.remove(entry.seq);
      return { kind: "refused", message, register };
    }
  }

  private remove(seq: number) {
    this.write(this.pending().filter((e) => e.seq !== seq));
  }

  private write(queue: QueuedSave[]) {
    if (!this.storage) this.memory = queue;
    else if (queue.length === 0) this.storage.removeItem(this.key);
    else this.storage.setItem(this.key, JSON.stringify(queue));
    for (const listener of this.listeners) listener();
  }
}

export interface ShownMark {
  studentId: string;
  name: string;
  status: AttendanceStatus;
  minutesLate: number | null;
  /** Present by default: no mark on the server nor on this phone yet. */
  assumed: boolean;
  /** Saved on this phone, not yet on the server. */
  unsent: boolean;
}

/**
 * What the page shows: the server's marks, over them the phone's unsent ones (newest last), and
 * Present only where neither has a mark. A default never hides a real mark.
 */
export function shownMarks(register: RegisterJson, pending: QueuedSave[]): ShownMark[] {
  const local = new Map<string, QueuedMark>();
  for (const entry of pending) for (const mark of entry.marks) local.set(mark.studentId, mark);
  return register.students.map((s) => {
    const mine = local.get(s.studentId);
    if (mine)
      return {
        studentId: s.studentId,
        name: s.name,
        status: mine.status,
        minutesLate: mine.minutesLate ?? null,
        assumed: false,
        unsent: true,
      };
    return {
      studentId: s.studentId,
      name: s.name,
      status: s.status ?? "present",
      minutesLate: s.minutesLate,
      assumed: s.status === null,
      unsent: false,
    };
  });
}
