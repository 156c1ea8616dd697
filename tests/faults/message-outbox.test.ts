import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SMTPServer } from "smtp-server";
import type { AddressInfo } from "node:net";
import { count, sql } from "drizzle-orm";
import { call, launch, runningServer } from "./server.ts";
import { readStore } from "./exam.ts";
import { messages } from "../../server/db/schema/index.ts";
import { SEND_QUEUE } from "../../server/messages/queue.ts";

/**
 * The outbox survives the server being killed (issue 30): messages written before the kill are
 * sent after the restart, each exactly once, including those whose send was under way when the
 * process died. A real SMTP server counts what arrives.
 */

const received = new Map<string, number>();
let releaseConnections: () => void = () => {};
let held = new Promise<void>((resolve) => (releaseConnections = resolve));
let smtp: SMTPServer;
let smtpPort = 0;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // Until released, a connection waits here: a send is under way but nothing has been accepted.
    onConnect(_session, callback) {
      held.then(() => callback(), callback);
    },
    onData(stream, _session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => (raw += chunk));
      stream.on("end", () => {
        const id = /^X-Pathshala-Message: (\S+)/im.exec(raw)?.[1] ?? "?";
        received.set(id, (received.get(id) ?? 0) + 1);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

const f = runningServer({
  env: () => ({
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_FROM: "Pathshala <no-reply@pathshala.test>",
    // A send cut off by the kill is tried again once its job has expired: seconds here, not a minute.
    JOB_EXPIRY_SECONDS: "3",
    JOB_SUPERVISE_SECONDS: "1",
  }),
});

describe("the message outbox across a crash", () => {
  it("sends every message written before a SIGKILL exactly once after the restart", async () => {
    const accounts = 8;
    for (let i = 0; i < accounts; i++) {
      const res = await call(f.server.base, "/api/auth/register", {
        body: {
          name: `Outbox ${i}`,
          email: `outbox.${i}.${Date.now().toString(36)}@example.com`,
          password: "tangerine-kettle-42",
          role: "student",
        },
      });
      expect(res.status).toBe(201);
    }
    // The worker has started sending (its connections wait at the SMTP server's door): kill it.
    await expect.poll(() => smtp.connections.size, { timeout: 10_000 }).toBeGreaterThan(0);
    f.server.child.kill("SIGKILL");
    await f.server.exited;
    expect(received.size).toBe(0);

    releaseConnections();
    held = Promise.resolve();
    f.server = await launch(f.store, {}, f.server.port);
    // Sends cut off by the kill are retried once their job has expired and the queue notices.
    await expect.poll(() => received.size, { timeout: 60_000, interval: 200 }).toBe(accounts);
    // Exactly once: stopped for the read, the server has no send under way that could still deliver
    // a copy, every message is recorded as sent and no job is left that could send one again.
    const stored = await readStore(f, async ({ db }) => ({
      statuses: await db.select({ status: messages.status, n: count() }).from(messages).groupBy(messages.status),
      // Both drivers answer a raw query with its rows in `rows`.
      jobsLeft: (
        (await db.execute(
          sql`select count(*)::int as n from pgboss.job where name = ${SEND_QUEUE} and state in ('created', 'retry', 'active')`,
        )) as unknown as { rows: { n: number }[] }
      ).rows[0]!.n,
    }));
    expect(stored.statuses).toEqual([{ status: "sent", n: accounts }]);
    expect(stored.jobsLeft).toBe(0);
    expect([...received.values()].every((n) => n === 1)).toBe(true);
    expect(received.size).toBe(accounts);
  }, 120_000);
});
