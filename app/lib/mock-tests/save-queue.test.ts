import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  createSaveQueue,
  DeadlinePassedError,
  queueStorageKey,
  saveStatusText,
  type QueueItem,
  type SaveQueueOptions,
} from "./save-queue";

interface Call {
  url: string;
  method: string;
  body: { seq: number; [key: string]: unknown };
}

const json = (status: number, body: unknown) =>
  new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json" },
  });

/** A fake server: records each call and answers with `respond` (200 {saved, seq} by default). */
function fakeServer() {
  const calls: Call[] = [];
  const server = {
    calls,
    respond: (call: Call): Promise<Response> | Response =>
      call.method === "PUT" ? json(200, { saved: true, seq: call.body.seq }) : json(204, null),
    fetch: (async (url: string, init: RequestInit) => {
      const call = { url, method: init.method!, body: JSON.parse(init.body as string) };
      calls.push(call);
      return server.respond(call);
    }) as unknown as typeof fetch,
  };
  return server;
}

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  };
}

const save = (questionId: string, seq: number, answer: number | null = 1): QueueItem => ({
  kind: "save",
  questionId,
  body: { answer, markedForReview: false, seq },
});
const visited = (questionId: string, seq: number): QueueItem => ({
  kind: "event",
  body: { type: "visited", questionId, seq },
});

const offline = () => Promise.reject(new TypeError("Failed to fetch"));
const flush = () => vi.advanceTimersByTimeAsync(0);
const KEY = queueStorageKey("att1");

function setup(over: Partial<SaveQueueOptions> = {}) {
  const server = fakeServer();
  const storage = memoryStorage();
  const online = new EventTarget();
  const options: SaveQueueOptions = {
    attemptId: "att1",
    fetch: server.fetch,
    storage,
    onlineEvents: online,
    random: () => 0.5,
    ...over,
  };
  const queue = createSaveQueue(options);
  queue.start();
  return { server, storage, online, queue, options };
}

const stored = (storage: ReturnType<typeof memoryStorage>) =>
  JSON.parse(storage.map.get(KEY) ?? '{"items":[]}').items.map((item: QueueItem) => item.body.seq);

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("the save queue", () => {
  it("sends a save and an event at once to the attempt's endpoints", async () => {
    const { server, queue, storage } = setup();
    queue.push(save("q 1", 5, 2));
    queue.push(visited("q2", 6));
    await flush();
    expect(server.calls).toEqual([
      { url: "/api/attempts/att1/responses/q%201", method: "PUT", body: { answer: 2, markedForReview: false, seq: 5 } },
      { url: "/api/attempts/att1/events", method: "POST", body: { type: "visited", questionId: "q2", seq: 6 } },
    ]);
    expect(queue.status()).toEqual({ kind: "saved" });
    expect(saveStatusText(queue.status())).toBe("All answers saved");
    expect(storage.map.has(KEY)).toBe(false);
  });

  it("sends one call at a time, in seq order, and keeps the one in flight in storage", async () => {
    const { server, queue, storage } = setup();
    let answer!: (response: Response) => void;
    server.respond = () => new Promise((resolve) => (answer = resolve));
    queue.push(save("q1", 1));
    queue.push(save("q2", 2));
    await flush();
    expect(server.calls.map((c) => c.body.seq)).toEqual([1]);
    expect(stored(storage)).toEqual([1, 2]);
    expect(saveStatusText(queue.status())).toBe("Saving…");
    answer(json(200, { saved: true, seq: 1 }));
    await flush();
    expect(server.calls.map((c) => c.body.seq)).toEqual([1, 2]);
  });

  it("keeps failed saves in storage, says so, and retries them with growing pauses", async () => {
    const { server, queue, storage } = setup({ retryDelay: (n) => 1000 * n });
    server.respond = offline;
    queue.push(save("q1", 1));
    queue.push(save("q2", 2));
    await flush();
    expect(queue.status()).toEqual({ kind: "offline", answers: 2 });
    expect(saveStatusText(queue.status())).toBe("Offline — 2 answers will be sent when you reconnect");
    expect(stored(storage)).toEqual([1, 2]);

    await vi.advanceTimersByTimeAsync(1000); // second try
    await vi.advanceTimersByTimeAsync(1999); // the third waits 2 s
    expect(server.calls.length).toBe(2);
    server.respond = (call) => json(200, { saved: true, seq: call.body.seq });
    await vi.advanceTimersByTimeAsync(1);
    expect(server.calls.map((c) => c.body.seq)).toEqual([1, 1, 1, 2]);
    expect(queue.status()).toEqual({ kind: "saved" });
    expect(storage.map.has(KEY)).toBe(false);
  });

  it("sends at once when the browser comes back online", async () => {
    const { server, queue, online } = setup({ retryDelay: () => 60_000 });
    server.respond = offline;
    queue.push(save("q1", 1));
    await flush();
    server.respond = (call) => json(200, { saved: true, seq: call.body.seq });
    online.dispatchEvent(new Event("online"));
    await flush();
    expect(server.calls.length).toBe(2);
    expect(queue.status()).toEqual({ kind: "saved" });
  });

  it("keeps only the newest pending save of each question", async () => {
    const { server, queue, storage, online } = setup({ retryDelay: () => 60_000 });
    server.respond = offline;
    queue.push(save("q1", 1, 0));
    await flush();
    queue.push(visited("q2", 2));
    queue.push(save("q1", 3, 1));
    queue.push(save("q2", 4, 2));
    queue.push(save("q1", 5, 3));
    expect(stored(storage)).toEqual([2, 4, 5]);
    expect(queue.status()).toEqual({ kind: "offline", answers: 2 });
    expect(queue.pendingSaves()).toEqual([
      { questionId: "q2", body: { answer: 2, markedForReview: false, seq: 4 } },
      { questionId: "q1", body: { answer: 3, markedForReview: false, seq: 5 } },
    ]);
    server.respond = (call) => json(call.method === "PUT" ? 200 : 204, { saved: true, seq: call.body.seq });
    online.dispatchEvent(new Event("online"));
    await flush();
    expect(server.calls.slice(1).map((c) => c.body.seq)).toEqual([2, 4, 5]);
  });

  it("drops a failed save once a newer save of its question is waiting", async () => {
    const { server, queue, online } = setup({ retryDelay: () => 60_000 });
    let fail!: (error: Error) => void;
    server.respond = () => new Promise((_, reject) => (fail = reject));
    queue.push(save("q1", 1, 0));
    await flush();
    queue.push(save("q1", 2, 3));
    fail(new TypeError("Failed to fetch"));
    await flush();
    server.respond = (call) => json(200, { saved: true, seq: call.body.seq });
    online.dispatchEvent(new Event("online"));
    await flush();
    expect(server.calls.map((c) => [c.body.seq, c.body.answer])).toEqual([
      [1, 0],
      [2, 3],
    ]);
  });

  it("after a reload, sends the queue found in storage first", async () => {
    const storage = memoryStorage();
    storage.setItem(KEY, JSON.stringify({ version: 1, items: [save("q1", 8, 2), visited("q3", 9), { junk: true }] }));
    const server = fakeServer();
    const queue = createSaveQueue({ attemptId: "att1", fetch: server.fetch, storage, random: () => 0.5 });
    expect(queue.pendingSaves()).toEqual([{ questionId: "q1", body: { answer: 2, markedForReview: false, seq: 8 } }]);
    expect(queue.highestSeq()).toBe(9);
    expect(server.calls).toEqual([]);
    queue.start();
    queue.push(save("q2", 10));
    await flush();
    expect(server.calls.map((c) => c.body.seq)).toEqual([8, 9, 10]);
    expect(storage.map.has(KEY)).toBe(false);
  });

  it("stops at a 409 (the deadline has passed) and says so", async () => {
    const onClosed = vi.fn();
    const { server, queue, storage } = setup({ onClosed });
    server.respond = () => json(409, { success: false, error: "The test is over" });
    queue.push(save("q1", 1));
    queue.push(save("q2", 2));
    await flush();
    expect(onClosed).toHaveBeenCalledOnce();
    expect(server.calls.length).toBe(1);
    expect(queue.status()).toEqual({ kind: "closed" });
    expect(saveStatusText(queue.status())).toBe("Time is up — answers can no longer be saved");
    queue.push(save("q3", 3));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(server.calls.length).toBe(1);
    await expect(queue.drain()).rejects.toBeInstanceOf(DeadlinePassedError);
    expect(storage.map.has(KEY)).toBe(false);
  });

  it("goes on after a late save the server refused with its reason (409 or 422 with `late`), telling it", async () => {
    const onClosed = vi.fn();
    const onLate = vi.fn();
    const { server, queue } = setup({ onClosed, onLate });
    const late = (reason: string) => ({ decision: "refused", reason, message: `Refused: ${reason}` });
    server.respond = (call) =>
      call.method === "POST"
        ? json(409, { success: false, error: "Time is up: this attempt has been submitted" })
        : call.body.seq === 1
          ? json(409, { success: false, error: "Time is up", late: late("after-grace") })
          : call.body.seq === 2
            ? json(422, { success: false, error: "Refused: in-future", late: late("in-future") })
            : json(200, {
                saved: true,
                seq: call.body.seq,
                late: { decision: "counted", reason: "in-time", message: "ok" },
              });
    queue.push(save("q1", 1));
    queue.push(save("q2", 2));
    // An event after the deadline is refused (409 without `late`): dropped, the save behind it still goes.
    queue.push(visited("q3", 3));
    queue.push(save("q3", 4));
    await flush();
    expect(server.calls.map((c) => c.body.seq)).toEqual([1, 2, 3, 4]);
    expect(onClosed).not.toHaveBeenCalled();
    expect(onLate.mock.calls.map(([, l]) => l.reason)).toEqual(["after-grace", "in-future", "in-time"]);
    expect(queue.status()).toEqual({ kind: "saved" });
  });

  it("keeps answers through a lost session and a server error, and drops a call the server calls wrong", async () => {
    const onRejected = vi.fn();
    const { server, queue } = setup({ onRejected, retryDelay: () => 1000 });
    server.respond = () => json(401, {});
    queue.push(save("q1", 1));
    await flush();
    expect(saveStatusText(queue.status())).toBe(
      "Signed out — 1 answer kept on this device; sign in again to send them",
    );
    server.respond = () => json(503, {});
    await vi.advanceTimersByTimeAsync(1000);
    expect(saveStatusText(queue.status())).toBe("Saving delayed — 1 answer will be sent again in a moment");
    server.respond = (call) => (call.body.seq === 1 ? json(400, { error: "bad" }) : json(200, { saved: true, seq: 2 }));
    queue.push(save("q2", 2));
    await vi.advanceTimersByTimeAsync(1000);
    expect(onRejected).toHaveBeenCalledWith(save("q1", 1), 400);
    expect(server.calls.map((c) => c.body.seq)).toEqual([1, 1, 1, 2]);
    expect(queue.status()).toEqual({ kind: "saved" });
  });

  it("drops events the server's capped log refuses (413, 429) and sends the saves behind them at once", async () => {
    const onRejected = vi.fn();
    const { server, queue } = setup({ onRejected, retryDelay: () => 60_000 });
    server.respond = (call) =>
      call.method === "POST"
        ? json(call.body.seq === 2 ? 429 : 413, { error: "log" })
        : json(200, { saved: true, seq: call.body.seq });
    queue.push(save("q1", 1));
    queue.push(visited("q2", 2));
    queue.push(visited("q3", 3));
    queue.push(save("q2", 4));
    await flush();
    expect(server.calls.map((c) => c.body.seq)).toEqual([1, 2, 3, 4]);
    expect(onRejected).toHaveBeenCalledWith(visited("q2", 2), 429);
    expect(onRejected).toHaveBeenCalledWith(visited("q3", 3), 413);
    expect(queue.status()).toEqual({ kind: "saved" });
  });

  it("still retries a save the server answers 429", async () => {
    const { server, queue } = setup({ retryDelay: () => 1000 });
    server.respond = () => json(429, {});
    queue.push(save("q1", 1));
    await flush();
    expect(saveStatusText(queue.status())).toBe("Saving delayed — 1 answer will be sent again in a moment");
    server.respond = (call) => json(200, { saved: true, seq: call.body.seq });
    await vi.advanceTimersByTimeAsync(1000);
    expect(server.calls.map((c) => c.body.seq)).toEqual([1, 1]);
    expect(queue.status()).toEqual({ kind: "saved" });
  });

  it("drain waits until everything is sent", async () => {
    const { server, queue, online } = setup({ retryDelay: () => 60_000 });
    await expect(queue.drain()).resolves.toBeUndefined();
    server.respond = offline;
    queue.push(save("q1", 1));
    await flush();
    let drained = false;
    void queue.drain().then(() => (drained = true));
    await flush();
    expect(drained).toBe(false);
    server.respond = (call) => json(200, { saved: true, seq: call.body.seq });
    online.dispatchEvent(new Event("online"));
    await flush();
    expect(drained).toBe(true);
  });

  it("hands the server's answer to a save on, for a moved deadline", async () => {
    const onSaved = vi.fn();
    const { server, queue } = setup({ onSaved });
    server.respond = () =>
      json(200, { saved: true, seq: 1, deadline: "2026-11-26T12:10:00Z", serverNow: "2026-11-26T11:00:00Z" });
    queue.push(save("q1", 1));
    await flush();
    expect(onSaved).toHaveBeenCalledWith({
      saved: true,
      seq: 1,
      deadline: "2026-11-26T12:10:00Z",
      serverNow: "2026-11-26T11:00:00Z",
    });
  });

  it("notifies subscribers with a stable status object", async () => {
    const { server, queue } = setup();
    server.respond = offline;
    const seen: unknown[] = [];
    queue.subscribe(() => seen.push(queue.status()));
    queue.push(save("q1", 1));
    await flush();
    expect(queue.status()).toBe(queue.status());
    expect(seen.at(-1)).toEqual({ kind: "offline", answers: 1 });
    expect(saveStatusText({ kind: "offline", answers: 0 })).toBe("Offline — all answers are saved; reconnecting…");
  });
});
