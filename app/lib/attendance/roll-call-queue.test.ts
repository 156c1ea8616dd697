import { describe, expect, it } from "vitest";
import { RollCallQueue, queueKey, shownMarks } from "./roll-call-queue.ts";
import type { RegisterJson } from "#common/validation/attendance.ts";

class MemoryStorage {
  items = new Map<string, string>();
  getItem = (k: string) => this.items.get(k) ?? null;
  setItem = (k: string, v: string) => void this.items.set(k, v);
  removeItem = (k: string) => void this.items.delete(k);
}

const register = (students: { studentId: string; status: RegisterJson["students"][number]["status"] }[]) =>
  ({
    students: students.map((s) => ({
      ...s,
      name: s.studentId,
      minutesLate: null,
      onlineMinutes: null,
      source: null,
      markedAt: null,
    })),
  }) as unknown as RegisterJson;

const ok = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });

describe("the roll-call queue", () => {
  it("keeps saves on the phone while offline and sends them in order, each removed after its 200", async () => {
    const storage = new MemoryStorage();
    let online = false;
    const sent: number[] = [];
    const queue = new RollCallQueue("s1", storage, async (_url, init) => {
      if (!online) throw new TypeError("Failed to fetch");
      sent.push(JSON.parse(String(init?.body)).seq);
      return ok({ register: register([]) });
    });
    queue.enqueue([{ studentId: "a", status: "absent" }], 100);
    queue.enqueue([{ studentId: "b", status: "absent" }], 100);
    expect((await queue.drain()).kind).toBe("offline");
    expect(JSON.parse(storage.getItem(queueKey("s1"))!)).toHaveLength(2);
    online = true;
    expect((await queue.drain()).kind).toBe("sent");
    expect(sent).toEqual([100, 101]);
    expect(storage.getItem(queueKey("s1"))).toBeNull();
  });

  it("keeps an entry the server could not take now, drops one it refused for good", async () => {
    const storage = new MemoryStorage();
    let status = 503;
    const queue = new RollCallQueue(
      "s1",
      storage,
      async () =>
        new Response(JSON.stringify({ error: "This register is closed: correct a mark with a reason." }), { status }),
    );
    queue.enqueue([{ studentId: "a", status: "absent" }], 5);
    expect((await queue.drain()).kind).toBe("waiting");
    expect(queue.pending()).toHaveLength(1);
    status = 409;
    expect(await queue.drain()).toMatchObject({
      kind: "refused",
      message: "This register is closed: correct a mark with a reason.",
    });
    expect(queue.pending()).toHaveLength(0);
  });
});

describe("the marks shown", () => {
  it("shows unsent marks over the server's, and Present only where nobody has marked", () => {
    const shown = shownMarks(
      register([
        { studentId: "a", status: "absent" },
        { studentId: "b", status: null },
        { studentId: "c", status: "late" },
      ]),
      [{ seq: 1, marks: [{ studentId: "c", status: "excused" }] }],
    );
    expect(shown.map((s) => [s.studentId, s.status, s.assumed, s.unsent])).toEqual([
      ["a", "absent", false, false],
      ["b", "present", true, false],
      ["c", "excused", false, true],
    ]);
  });
});
