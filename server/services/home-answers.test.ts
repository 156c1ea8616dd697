import { describe, expect, it } from "vitest";
import { HomeAnswerStore, storedSize, type StoredAnswer } from "./home-answers.ts";

const answer = (centerId: string, body: string, overrides: Partial<StoredAnswer> = {}): StoredAnswer => ({
  head: Buffer.from(`ETag: "${centerId}"\r\n\r\n`, "latin1"),
  body: Buffer.from(body),
  centerId,
  tenant: `slug-${centerId}`,
  expiresAt: Infinity,
  ...overrides,
});

/**
 * A socket stand-in that keeps the bytes written to it. `writableLength` 1 says it could not send
 * them at once and holds on to them, as a real one does when its client is behind.
 */
function socket(writableLength = 0) {
  const written: Buffer[] = [];
  return { written, writableLength, write: (bytes: Buffer) => written.push(bytes) };
}

/** The answer written for this entry, after `start`. */
function written(store: HomeAnswerStore, entry: number, withBody = true, start = ""): string {
  const to = socket();
  store.writeAnswer(entry, start, withBody, to);
  return Buffer.concat(to.written).toString();
}

describe("HomeAnswerStore", () => {
  it("gives back the head and body it was given, or the head alone for a HEAD", () => {
    const store = new HomeAnswerStore(1024 * 1024);
    store.put("a.test", null, false, answer("c1", "<html>a</html>"));
    const entry = store.find("a.test", null, false, Date.now());
    expect(written(store, entry)).toBe('ETag: "c1"\r\n\r\n<html>a</html>');
    expect(written(store, entry, false)).toBe('ETag: "c1"\r\n\r\n');
    expect(store.tenant(entry)).toBe("slug-c1");
  });

  it("keeps each encoding and scheme of a host apart", () => {
    const store = new HomeAnswerStore(1024 * 1024);
    store.put("a.test", null, false, answer("c1", "plain"));
    store.put("a.test", "gzip", false, answer("c1", "gzipped"));
    store.put("a.test", null, true, answer("c1", "secure"));
    const now = Date.now();
    expect(written(store, store.find("a.test", "gzip", false, now))).toContain("gzipped");
    expect(written(store, store.find("a.test", null, true, now))).toContain("secure");
    expect(written(store, store.find("a.test", null, false, now))).toContain("plain");
    expect(store.find("a.test", "br", false, now)).toBe(-1);
    expect(store.find("b.test", null, false, now)).toBe(-1);
  });

  it("does not answer for an institute whose plan has ended", () => {
    const store = new HomeAnswerStore(1024 * 1024);
    const expiresAt = Date.now() + 60_000;
    store.put("a.test", null, false, answer("c1", "page", { expiresAt }));
    expect(store.find("a.test", null, false, expiresAt - 1)).toBeGreaterThanOrEqual(0);
    expect(store.find("a.test", null, false, expiresAt)).toBe(-1);
  });

  it("replaces a host's answer, and forgets every answer of one institute", () => {
    const store = new HomeAnswerStore(1024 * 1024);
    store.put("a.test", null, false, answer("c1", "old"));
    store.put("a.test", null, false, answer("c1", "new"));
    store.put("www.a.test", "gzip", false, answer("c1", "other host"));
    store.put("b.test", null, false, answer("c2", "b"));
    const now = Date.now();
    expect(written(store, store.find("a.test", null, false, now))).toContain("new");
    expect(store.size).toBe(3);
    store.forgetCenter("c1");
    expect(store.find("a.test", null, false, now)).toBe(-1);
    expect(store.find("www.a.test", "gzip", false, now)).toBe(-1);
    expect(written(store, store.find("b.test", null, false, now))).toContain("b");
    store.clear();
    expect(store.size).toBe(0);
    expect(store.bytesUsed).toBe(0);
  });

  it("spreads answers over chunks without splitting one, each byte for byte", () => {
    const store = new HomeAnswerStore(1024 * 1024, 1000);
    const bodies = Array.from({ length: 20 }, (_, i) => String.fromCharCode(97 + i).repeat(300 + i));
    bodies.forEach((body, i) => store.put(`h${i}.test`, null, false, answer(`c${i}`, body)));
    const now = Date.now();
    bodies.forEach((body, i) => expect(written(store, store.find(`h${i}.test`, null, false, now))).toBe(`ETag: "c${i}"\r\n\r\n${body}`));
  });

  it("stays within its capacity: refuses answers when full, starts afresh when most of it was dropped", () => {
    const store = new HomeAnswerStore(1100, 1100);
    const page = "x".repeat(250);
    for (let i = 0; i < 5; i++) store.put(`h${i}.test`, null, false, answer(`c${i}`, page));
    const now = Date.now();
    // Each answer takes 344 bytes with its header and its host's name: three fit.
    expect([0, 1, 2, 3, 4].map((i) => store.find(`h${i}.test`, null, false, now) >= 0)).toEqual([true, true, true, false, false]);
    expect(store.bytesUsed).toBeLessThanOrEqual(1100);
    store.forgetCenter("c0");
    store.forgetCenter("c1");
    store.put("h3.test", null, false, answer("c3", page));
    expect(store.find("h2.test", null, false, now)).toBe(-1);
    expect(written(store, store.find("h3.test", null, false, now))).toContain(page);
    expect(store.size).toBe(1);
  });

  it("finds each of thousands of hosts after its table grows, entries are dropped and hosts come back", () => {
    const store = new HomeAnswerStore(64 * 1024 * 1024);
    const hosts = Array.from({ length: 5000 }, (_, i) => `bench-${i}.test`);
    hosts.forEach((host, i) => store.put(host, i % 2 ? "br" : null, false, answer(`c${i % 100}`, `page ${i}`)));
    for (let c = 0; c < 100; c += 2) store.forgetCenter(`c${c}`);
    hosts.forEach((host, i) => i % 4 === 0 && store.put(host, null, false, answer(`c${i % 100}`, `again ${i}`)));
    const now = Date.now();
    hosts.forEach((host, i) => {
      const encoding = i % 2 ? "br" : null;
      const entry = store.find(host, encoding, false, now);
      if (i % 4 === 0) expect(written(store, entry)).toContain(`again ${i}`);
      else if (i % 100 % 2 === 0) expect(entry).toBe(-1);
      else expect(written(store, entry)).toContain(`page ${i}`);
      // The same name of another kind, or one a character longer, is another host.
      expect(store.find(host, encoding, true, now)).toBe(-1);
      expect(store.find(`${host}x`, encoding, false, now)).toBe(-1);
    });
    expect(store.size).toBe(hosts.filter((_, i) => i % 4 === 0 || i % 100 % 2 === 1).length);
  });

  it("does not keep an answer for a host whose name is not one byte per character", () => {
    const store = new HomeAnswerStore(1024 * 1024);
    store.put("खान.test", null, false, answer("c1", "page"));
    expect(store.find("खान.test", null, false, Date.now())).toBe(-1);
    expect(store.size).toBe(0);
  });

  it("refuses an answer larger than a chunk", () => {
    const store = new HomeAnswerStore(10_000, 100);
    store.put("a.test", null, false, answer("c1", "x".repeat(200)));
    expect(store.find("a.test", null, false, Date.now())).toBe(-1);
  });

  describe("plain answers of one family", () => {
    /** Pages of one template: the same long markup around each institute's own name. */
    const page = (name: string) => `<!doctype html><title>${name}</title>${"<section>the template's own markup, the same for every institute</section>".repeat(40)}<h1>${name}</h1><footer>${name} · all rights reserved</footer>`;
    const familyAnswer = (i: number, overrides: Partial<StoredAnswer> = {}) => answer(`c${i}`, page(`Institute ${i}`), { family: "t1", ...overrides });

    it("gives back each one byte for byte, with the start before it, or its head alone for a HEAD", () => {
      const store = new HomeAnswerStore(1024 * 1024);
      for (let i = 0; i < 50; i++) store.put(`h${i}.test`, null, false, familyAnswer(i));
      const now = Date.now();
      for (let i = 0; i < 50; i++) {
        const entry = store.find(`h${i}.test`, null, false, now);
        expect(written(store, entry, true, "HTTP/1.1 200 OK\r\n")).toBe(`HTTP/1.1 200 OK\r\nETag: "c${i}"\r\n\r\n${page(`Institute ${i}`)}`);
        expect(written(store, entry, false, "HTTP/1.1 200 OK\r\n")).toBe(`HTTP/1.1 200 OK\r\nETag: "c${i}"\r\n\r\n`);
      }
    });

    it("keeps only what each page does not share with the first: a fraction of keeping every page whole", () => {
      const shared = new HomeAnswerStore(16 * 1024 * 1024);
      const whole = new HomeAnswerStore(16 * 1024 * 1024);
      for (let i = 0; i < 200; i++) {
        shared.put(`h${i}.test`, null, false, familyAnswer(i));
        whole.put(`h${i}.test`, null, false, familyAnswer(i, { family: undefined }));
      }
      expect(shared.size).toBe(200);
      expect(shared.bytesUsed).toBeLessThan(whole.bytesUsed / 5);
    });

    it("keeps compressed answers and pages that share little with their base whole, and still gives them back", () => {
      const store = new HomeAnswerStore(1024 * 1024);
      store.put("a.test", null, false, familyAnswer(1));
      /** Puts the answer and says whether it took the bytes of the answer kept whole. */
      const keptWhole = (host: string, encoding: "br" | null, kept: StoredAnswer) => {
        const before = store.bytesUsed;
        store.put(host, encoding, false, kept);
        return store.bytesUsed - before === storedSize(host.length, kept.head.length + kept.body.length);
      };
      // Compressed, and long enough to be worth keeping against a base if it were plain.
      expect(keptWhole("a.test", "br", familyAnswer(1, { body: Buffer.from(page("compressed bytes")) }))).toBe(true);
      expect(keptWhole("b.test", null, answer("c2", "nothing like the others", { family: "t1" }))).toBe(true);
      expect(keptWhole("c.test", null, familyAnswer(3))).toBe(false);
      const now = Date.now();
      expect(written(store, store.find("a.test", "br", false, now))).toBe(`ETag: "c1"\r\n\r\n${page("compressed bytes")}`);
      expect(written(store, store.find("b.test", null, false, now))).toBe('ETag: "c2"\r\n\r\nnothing like the others');
      expect(written(store, store.find("a.test", null, false, now))).toBe(`ETag: "c1"\r\n\r\n${page("Institute 1")}`);
    });

    it("composes the next answer elsewhere when the socket still holds the last one", () => {
      const store = new HomeAnswerStore(1024 * 1024);
      store.put("a.test", null, false, familyAnswer(1));
      store.put("b.test", null, false, familyAnswer(2));
      const now = Date.now();
      const [a, b] = [store.find("a.test", null, false, now), store.find("b.test", null, false, now)];
      const behind = socket(1);
      store.writeAnswer(a, "", true, behind);
      const copy = Buffer.from(behind.written[0]);
      store.writeAnswer(b, "", true, socket());
      expect(behind.written[0].equals(copy)).toBe(true);
      // When the socket sent it at once, the same memory is written again.
      const sent = socket();
      store.writeAnswer(b, "", true, sent);
      store.writeAnswer(a, "", true, socket());
      expect(sent.written[0].toString()).toContain("Institute 1");
    });
  });
});

