import { openDatabase } from "../../server/db/open.ts";
import type { Database } from "../../server/db/types.ts";
import { call, launch, type Running, type Store } from "./server.ts";

/**
 * A candidate and an institute as the fault tests of mock tests drive them: through the API of a
 * running production server, on the platform's host (a session holds on the host it was made on).
 */

export interface Account {
  id: string;
  email: string;
  password: string;
  token: string;
}

export interface Sitting {
  _id: string;
  deadline: string;
  serverNow: string;
  status: "in-progress" | "submitted";
  lastSeq: number;
  responses: Record<string, { answer: unknown; markedForReview: boolean }>;
  sections: { questions: { _id: string; type: string }[] }[];
}

let registered = 0;

export async function registerAccount(base: string, role: "student" | "creator", name: string): Promise<Account> {
  registered += 1;
  const email = `${role}.${registered}.${Date.now().toString(36)}@example.com`;
  const password = "tangerine-kettle-42";
  const res = await call(base, "/api/auth/register", { body: { name, email, password, role } });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return { id: res.json.user._id, email, password, token: res.json.access_token };
}

/** A second device signing in to the same account: its own token. */
export async function signInAgain(base: string, account: Account): Promise<string> {
  const res = await call(base, "/api/auth/login", { body: { email: account.email, password: account.password } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  return res.json.access_token;
}

/** The student's side of a sitting: each call is one request, as the exam screen sends it. */
export function candidate(server: () => Running, token: string) {
  const base = () => server().base;
  return {
    async start(testId: string): Promise<Sitting> {
      const res = await call(base(), `/api/tests/${testId}/attempts`, { token, body: {} });
      if (res.status !== 200) throw new Error(`start failed: ${res.status} ${res.text}`);
      return res.json.attempt;
    },
    async view(attemptId: string): Promise<Sitting> {
      const res = await call(base(), `/api/attempts/${attemptId}`, { token });
      if (res.status !== 200) throw new Error(`view failed: ${res.status} ${res.text}`);
      return res.json.attempt;
    },
    save(attemptId: string, questionId: string, body: { answer: unknown; seq: number; markedForReview?: boolean }) {
      return call(base(), `/api/attempts/${attemptId}/responses/${questionId}`, { method: "PUT", token, body });
    },
    submit(attemptId: string) {
      return call(base(), `/api/attempts/${attemptId}/submit`, { token, body: {} });
    },
    result(attemptId: string) {
      return call(base(), `/api/attempts/${attemptId}/result`, { token });
    },
  };
}

/**
 * The server's time as this process reads it: the offset measured from an answer's `serverNow`
 * (taken when the answer arrived; a localhost round trip is a few milliseconds).
 */
export function serverClock(sitting: Pick<Sitting, "serverNow">) {
  const offset = Date.parse(sitting.serverNow) - Date.now();
  return {
    now: () => Date.now() + offset,
    /** Resolves once the server's clock reads `at` (ISO or ms) or later. */
    async until(at: string | number) {
      const target = typeof at === "string" ? Date.parse(at) : at;
      const wait = target - (Date.now() + offset);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    },
  };
}

/** Polls the institute's analysis until the attempt is on the rank list (submitted), with when it was seen. */
export async function untilSubmitted(
  base: string,
  creatorToken: string,
  testId: string,
  attemptId: string,
  timeoutMs = 90_000,
): Promise<{ submittedAt: string; submittedBy: string; seenAt: number }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(base, `/api/tests/${testId}/analysis`, { token: creatorToken });
    const row = res.json?.rankList?.find((r: { attemptId: string }) => r.attemptId === attemptId);
    if (row) return { submittedAt: row.submittedAt, submittedBy: row.submittedBy, seenAt: Date.now() };
    if (Date.now() > until) throw new Error(`attempt ${attemptId} was not submitted in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Reads the store behind a running server. On PostgreSQL directly; the embedded database belongs
 * to the server, so it is stopped (SIGTERM) for the read and started again on the same port.
 */
export async function readStore<T>(
  fixture: { store: Store; server: Running },
  read: (database: Database) => Promise<T>,
): Promise<T> {
  if (fixture.store.databaseUrl) {
    const database = await openDatabase({ databaseUrl: fixture.store.databaseUrl, poolMax: 1 });
    try {
      return await read(database);
    } finally {
      await database.close();
    }
  }
  fixture.server.child.kill("SIGTERM");
  await fixture.server.exited;
  const database = await openDatabase({ dataDir: fixture.store.dataDir });
  try {
    return await read(database);
  } finally {
    await database.close();
    fixture.server = await launch(fixture.store, {}, fixture.server.port);
  }
}
