/**
 * The simulated candidates of `npm run bench:tests`: each one starts its sitting, then saves one
 * answer at a time (a save waits for the previous one's answer, as the exam screen's queue does)
 * until shortly before its deadline, remembering what the server acknowledged.
 */
import { Agent, request } from "node:http";

export interface Answered {
  status: number;
  json: any;
  ms: number;
}

/** Many candidates on one machine share a few hundred kept-alive connections, as a proxy in front would. */
const agent = new Agent({ keepAlive: true, maxSockets: 400 });

export function send(port: number, method: string, path: string, token: string, body?: unknown): Promise<Answered> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        agent,
        headers: {
          authorization: `Bearer ${token}`,
          ...(text === undefined
            ? {}
            : { "content-type": "application/json", "content-length": String(Buffer.byteLength(text)) }),
        },
      },
      (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (data += d));
        res.on("end", () => {
          let json: any = null;
          try {
            json = JSON.parse(data);
          } catch {
            // not JSON: counted by its status
          }
          resolve({ status: res.statusCode ?? 0, json, ms: performance.now() - started });
        });
      },
    );
    // A connection error is an answer too (status 0): the bench counts it, it does not stop.
    req.on("error", () => resolve({ status: 0, json: null, ms: performance.now() - started }));
    req.end(text);
  });
}

export interface PaperQuestion {
  _id: string;
  type: string;
}

export interface CandidateLog {
  startMs: number;
  startStatus: number;
  attemptId: string | null;
  deadline: number;
  saves: { ms: number; status: number }[];
  /** Refused with 409 although sent before the deadline by the server's clock (an error). */
  refusedEarly: number;
  /** What the server acknowledged last for each question: the answer as stored (JSON text) and its seq. */
  acknowledged: Map<string, { answer: string; seq: number }>;
}

export interface CandidatePlan {
  /** The instances' ports: each request goes to the next in turn, as a round-robin load balancer sends them. */
  ports: number[];
  testId: string;
  token: string;
  /** When (performance.now()) to start the sitting. */
  startAt: number;
  /** Seconds between one save and the next: drawn from [min, max]. */
  saveEvery: [number, number];
  /** Stop this long before the deadline, so a save in flight is not refused for arriving late. */
  marginMs: number;
}

let turn = 0;
const nextPort = (ports: number[]) => ports[turn++ % ports.length];

const sleepUntil = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - performance.now())));

/** An answer of the right shape for the question. */
function anAnswer(question: PaperQuestion): number | string {
  return question.type === "numerical" ? (Math.random() * 100).toFixed(2) : Math.floor(Math.random() * 4);
}

export async function runCandidate(plan: CandidatePlan): Promise<CandidateLog> {
  const log: CandidateLog = {
    startMs: 0,
    startStatus: 0,
    attemptId: null,
    deadline: 0,
    saves: [],
    refusedEarly: 0,
    acknowledged: new Map(),
  };
  await sleepUntil(plan.startAt);
  const started = await send(nextPort(plan.ports), "POST", `/api/tests/${plan.testId}/attempts`, plan.token, {});
  log.startMs = started.ms;
  log.startStatus = started.status;
  if (started.status !== 200) return log;
  const attempt = started.json.attempt;
  log.attemptId = attempt._id;
  // The deadline on this process's clock: the server's time minus the offset read from its answer.
  const offset = Date.parse(attempt.serverNow) - Date.now();
  log.deadline = Date.parse(attempt.deadline) - offset;
  const questions: PaperQuestion[] = attempt.sections.flatMap((s: { questions: PaperQuestion[] }) => s.questions);
  const [min, max] = plan.saveEvery;
  let seq = 0;
  for (;;) {
    const next = Date.now() + (min + Math.random() * (max - min)) * 1000;
    if (next > log.deadline - plan.marginMs) break;
    await new Promise((r) => setTimeout(r, next - Date.now()));
    const question = questions[Math.floor(Math.random() * questions.length)];
    const answer = anAnswer(question);
    seq += 1;
    const saved = await send(
      nextPort(plan.ports),
      "PUT",
      `/api/attempts/${log.attemptId}/responses/${question._id}`,
      plan.token,
      {
        answer,
        seq,
      },
    );
    log.saves.push({ ms: saved.ms, status: saved.status });
    if (saved.status === 200 && saved.json?.saved)
      log.acknowledged.set(question._id, { answer: JSON.stringify(answer), seq });
    if (saved.status === 409 && Date.now() < log.deadline) log.refusedEarly += 1;
  }
  return log;
}

/** The p-th percentile (0–100) of a list of numbers, by nearest rank. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
