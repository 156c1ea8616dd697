import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { messages } from "../../server/db/schema/index.ts";
import { parseEnv } from "../../server/runtime/env.ts";
import { createLogger } from "../../server/runtime/logger.ts";
import { JobQueue } from "../../server/messages/queue.ts";
import { MessageService } from "../../server/messages/service.ts";
import { SiteLinks } from "../../server/messages/links.ts";
import type { MessagingConfig } from "../../server/messages/config.ts";
import type { Outgoing, Transport } from "../../server/messages/transports/types.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/database.ts";

/**
 * A message whose provider keeps failing (issue 30 §1): tried again with the queue's retries, then
 * marked failed with its last error for the admins; one failing message never holds back or
 * resends the others fetched with it. The retries here are one second apart, not the product's 20 s.
 */

let db: TestDatabase;
let service: MessageService;
/** What the e-mail provider does for each recipient: fail this many more times ("always": never stop). */
const failuresLeft = new Map<string, number | "always">();
const calls: string[] = [];

const flaky: Transport = {
  name: "flaky",
  async send(message: Outgoing) {
    calls.push(message.recipient);
    const left = failuresLeft.get(message.recipient) ?? 0;
    if (left === "always" || left > 0) {
      if (left !== "always") failuresLeft.set(message.recipient, left - 1);
      throw new Error("SMTP answered 421: try again later");
    }
    return { providerId: `flaky-${message.id}` };
  },
};

beforeAll(async () => {
  db = await createTestDatabase();
  const env = parseEnv({ NODE_ENV: "test", LOG_LEVEL: "silent", SEED_DEMO: "0" });
  const logger = createLogger(env);
  const config: MessagingConfig = {
    transports: { email: flaky, whatsapp: null, sms: null },
    sandbox: false,
    whatsappAppSecret: undefined,
    whatsappVerifyToken: undefined,
    msg91WebhookToken: undefined,
    close() {},
  };
  service = new MessageService({
    db: db.database.db,
    queue: new JobQueue(db.database, logger, { retryLimit: 2, retryDelay: 1 }),
    config,
    logger,
    links: new SiteLinks(env),
  });
  await service.start();
});
afterAll(async () => {
  await service.stop();
  await db.drop();
});

async function welcome(...emails: string[]) {
  await db.database.db.transaction(async (tx) => {
    for (const email of emails)
      await service.send(tx, {
        template: "welcome",
        values: { name: "Asha", link: "http://localhost/" },
        to: { email },
      });
  });
}

const rowOf = async (email: string) =>
  (await db.database.db.select().from(messages).where(eq(messages.recipient, email)))[0];

describe("a message its provider refuses for now", () => {
  it("is tried again and sent once the provider takes it", async () => {
    failuresLeft.set("later@example.com", 2);
    await welcome("later@example.com");
    await expect.poll(async () => (await rowOf("later@example.com")).status, { timeout: 20_000 }).toBe("sent");
    const row = await rowOf("later@example.com");
    expect(row.attempts).toBe(3);
    expect(row.providerId).toBe(`flaky-${row.id}`);
    expect(calls.filter((c) => c === "later@example.com")).toHaveLength(3);
  });

  it("is marked failed with its last error after the last retry, for the admins to retry", async () => {
    failuresLeft.set("never@example.com", "always");
    await welcome("never@example.com");
    await expect.poll(async () => (await rowOf("never@example.com")).status, { timeout: 30_000 }).toBe("failed");
    const row = await rowOf("never@example.com");
    expect(row.lastError).toBe("SMTP answered 421: try again later");
    // The first try and both retries.
    expect(row.attempts).toBe(3);
    expect((await service.list("failed")).map((m) => m.to)).toContain("never@example.com");

    // The admin's retry, once the provider is back, sends it.
    failuresLeft.set("never@example.com", 0);
    await service.retry(row.id);
    await expect.poll(async () => (await rowOf("never@example.com")).status, { timeout: 20_000 }).toBe("sent");
  });

  it("sends each of the messages fetched with it once, and fails it alone", async () => {
    failuresLeft.set("stuck@example.com", "always");
    const fine = ["fine1@example.com", "fine2@example.com", "fine3@example.com"];
    await welcome("stuck@example.com", ...fine);
    await expect
      .poll(
        async () =>
          (await db.database.db.select().from(messages).where(inArray(messages.recipient, fine))).every(
            (m) => m.status === "sent",
          ),
        { timeout: 10_000 },
      )
      .toBe(true);
    await expect.poll(async () => (await rowOf("stuck@example.com")).status, { timeout: 30_000 }).toBe("failed");
    for (const email of fine)
      expect(
        calls.filter((c) => c === email),
        email,
      ).toHaveLength(1);
  });
});
