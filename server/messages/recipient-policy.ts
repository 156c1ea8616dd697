import { and, count, eq, gt, inArray, isNull, notInArray } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { centers, messages, users } from "../db/schema/index.ts";
import type { DbOrTx } from "../db/types.ts";
import { ADVISORY_LOCKS, lockForTransaction } from "../db/advisory-locks.ts";
import { TEMPLATES, type Recipient, type TemplateId } from "./templates.ts";
import { unreachableNumber } from "./reachable-numbers.ts";
import { currentRequester } from "./requester.ts";
import type { Channel } from "#common/messages.ts";

/**
 * The recipient policy (issue 37 §6, decision 0032): every message passes here before it is
 * written, so nobody uses the platform to message strangers. A message that breaks a rule is
 * written all the same, `held` with the reason, never sent, and shown on the admins' messages page.
 *
 * - WhatsApp and SMS go only to mobile numbers we may reach (server/messages/reachable-numbers.ts).
 * - Messages to an address given in the request (templates whose recipient is `given` or
 *   `visitor`) are limited per day: per recipient, per requesting account, per requesting network
 *   address and per institute. Their requester is recorded with them.
 * - An anonymous form's confirmation (`visitor`) goes to an address at most once in 30 days,
 *   unless the address has proven itself (a number verified on an account).
 *
 * Counts come from the messages table (the last 24 hours, or 30 days; held and skipped messages
 * do not count). Transactions that write such messages take one lock first, so parallel requests
 * are counted one after another and a limit lets exactly its number through.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The daily limits on messages to given addresses (counted over the last 24 hours). */
export const MESSAGE_LIMITS = {
  /** To one address (per channel): a person asking for codes or invitations again and again stays well under. */
  perRecipient: 10,
  /** Asked for by one signed-in account: ten codes on two channels, or twenty invitations. */
  perAccount: 20,
  /** Asked for from one network address (a school's shared connection signs up many students). */
  perAddress: 30,
  /** Through one institute (its site's enquiries and sign-ups, codes asked for on its domain). */
  perInstitute: 200,
  /** Days in which an address gets one anonymous form's confirmation. */
  confirmationDays: 30,
} as const;

export const HOLD_REASONS = {
  confirmed: `Already confirmed: this address had a confirmation from an anonymous form in the last ${MESSAGE_LIMITS.confirmationDays} days`,
  perRecipient: `Daily limit: ${MESSAGE_LIMITS.perRecipient} messages to this address in 24 hours`,
  perAccount: `Daily limit: ${MESSAGE_LIMITS.perAccount} messages asked for by one account in 24 hours`,
  perAddress: `Daily limit: ${MESSAGE_LIMITS.perAddress} messages asked for from one network address in 24 hours`,
  perInstitute: `Daily limit: ${MESSAGE_LIMITS.perInstitute} messages to addresses given through this institute in 24 hours`,
} as const;

/** What the policy reads and sets of a message about to be written. */
export interface OutgoingMessage {
  template: string;
  channel: Channel;
  recipient: string;
  centerId?: string | null;
  requestedBy?: string | null;
  requestedFrom?: string | null;
  status: "queued" | "skipped" | "held";
  lastError?: string | null;
}

const recipientOf = (template: string): Recipient =>
  (TEMPLATES[template as TemplateId] as { recipient?: Recipient } | undefined)?.recipient ?? "account";
const templatesFor = (...kinds: Recipient[]) =>
  (Object.keys(TEMPLATES) as TemplateId[]).filter((id) => kinds.includes(recipientOf(id)));
/** Templates whose address is given in the request: the ones the daily limits count. */
const GIVEN = templatesFor("given", "visitor");
const VISITOR = templatesFor("visitor");
const NOT_SENT = ["held", "skipped"] as ("held" | "skipped")[];

const isPhone = (channel: Channel) => channel === "whatsapp" || channel === "sms";
const distinct = <T>(values: (T | null | undefined)[]) => [...new Set(values.filter((v): v is T => v != null))];

/** Holds back (status `held`, the reason as its error) each message in `rows` that breaks a rule. */
export async function applyRecipientPolicy(tx: DbOrTx, rows: OutgoingMessage[]): Promise<void> {
  await holdUnreachableNumbers(tx, rows);
  const given = rows.filter((row) => GIVEN.includes(row.template as TemplateId));
  if (given.length === 0) return;
  const requester = currentRequester();
  for (const row of given) {
    row.requestedBy = requester?.userId ?? null;
    row.requestedFrom = requester?.ip ?? null;
  }
  const open = given.filter((row) => row.status === "queued");
  if (open.length === 0) return;
  await lockForTransaction(tx, ADVISORY_LOCKS.messageLimits, "given-addresses");
  const now = Date.now();
  const day = new Date(now - DAY);
  const recipients = distinct(open.map((r) => r.recipient));
  const counts = {
    recipient: await countBy(tx, GIVEN, day, [messages.channel, messages.recipient], messages.recipient, recipients),
    confirmed: await countBy(
      tx,
      VISITOR,
      new Date(now - MESSAGE_LIMITS.confirmationDays * DAY),
      [messages.channel, messages.recipient],
      messages.recipient,
      recipients,
    ),
    account: await countBy(
      tx,
      GIVEN,
      day,
      [messages.requestedBy],
      messages.requestedBy,
      open.map((r) => r.requestedBy),
    ),
    address: await countBy(
      tx,
      GIVEN,
      day,
      [messages.requestedFrom],
      messages.requestedFrom,
      open.map((r) => r.requestedFrom),
    ),
    institute: await countBy(
      tx,
      GIVEN,
      day,
      [messages.centerId],
      messages.centerId,
      open.map((r) => r.centerId),
    ),
  };
  const proven = await provenNumbers(tx, open);
  for (const row of open) {
    const keys = {
      recipient: `${row.channel}:${row.recipient}`,
      confirmed: `${row.channel}:${row.recipient}`,
      account: row.requestedBy ?? null,
      address: row.requestedFrom ?? null,
      institute: row.centerId ?? null,
    };
    const over = (name: keyof typeof counts, limit: number) => {
      const key = keys[name];
      return key !== null && (counts[name].get(key) ?? 0) >= limit;
    };
    const reason =
      recipientOf(row.template) === "visitor" && !proven.has(row.recipient) && over("confirmed", 1)
        ? HOLD_REASONS.confirmed
        : over("recipient", MESSAGE_LIMITS.perRecipient)
          ? HOLD_REASONS.perRecipient
          : over("account", MESSAGE_LIMITS.perAccount)
            ? HOLD_REASONS.perAccount
            : over("address", MESSAGE_LIMITS.perAddress)
              ? HOLD_REASONS.perAddress
              : over("institute", MESSAGE_LIMITS.perInstitute)
                ? HOLD_REASONS.perInstitute
                : null;
    if (reason) {
      hold(row, reason);
      continue;
    }
    // This message counts towards the next ones of the same batch.
    for (const name of Object.keys(counts) as (keyof typeof counts)[]) {
      const key = keys[name];
      if (key === null || (name === "confirmed" && recipientOf(row.template) !== "visitor")) continue;
      counts[name].set(key, (counts[name].get(key) ?? 0) + 1);
    }
  }
}

function hold(row: OutgoingMessage, reason: string) {
  row.status = "held";
  row.lastError = reason;
}

/** WhatsApp and SMS only to mobile numbers, Indian ones unless the institute has switched others on. */
async function holdUnreachableNumbers(tx: DbOrTx, rows: OutgoingMessage[]) {
  const phones = rows.filter((row) => isPhone(row.channel) && row.status === "queued");
  if (phones.length === 0) return;
  const international = await internationalCenters(
    tx,
    phones.map((row) => row.centerId),
  );
  for (const row of phones) {
    const reason = unreachableNumber(row.recipient, {
      international: row.centerId ? international.has(row.centerId) : false,
      forInstitute: Boolean(row.centerId),
    });
    if (reason) hold(row, reason);
  }
}

/** Which of these institutes send WhatsApp and SMS to numbers outside India. */
async function internationalCenters(tx: DbOrTx, ids: (string | null | undefined)[]): Promise<Set<string>> {
  const among = distinct(ids);
  if (among.length === 0) return new Set();
  const rows = await tx
    .select({ id: centers.id })
    .from(centers)
    // A free trial (anybody can start one) keeps to Indian numbers whatever its setting says.
    .where(and(inArray(centers.id, among), eq(centers.internationalMessages, true), isNull(centers.trialEndsAt)));
  return new Set(rows.map((row) => row.id));
}

/**
 * Why WhatsApp and SMS about this institute (or the platform) cannot go to `number`, or null:
 * what a form asking for a code checks first, so that nobody waits for a code that is held.
 */
export async function unreachableFor(tx: DbOrTx, number: string, centerId?: string | null): Promise<string | null> {
  const international = centerId ? (await internationalCenters(tx, [centerId])).has(centerId) : false;
  return unreachableNumber(number, { international, forInstitute: Boolean(centerId) });
}

/**
 * Messages of `templates` written since `since` that went (or will go) out, whose `column` is one
 * of `values`, counted per value of `keys` (joined with ":").
 */
async function countBy(
  tx: DbOrTx,
  templates: TemplateId[],
  since: Date,
  keys: AnyPgColumn[],
  column: AnyPgColumn,
  values: (string | null | undefined)[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const among = distinct(values);
  if (among.length === 0) return out;
  const grouped = Object.fromEntries(keys.map((key, i) => [`k${i}`, key]));
  const rows = (await tx
    .select({ ...grouped, n: count() })
    .from(messages)
    .where(
      and(
        inArray(column, among),
        inArray(messages.template, templates),
        gt(messages.createdAt, since),
        notInArray(messages.status, NOT_SENT),
      ),
    )
    .groupBy(...keys)) as Record<string, unknown>[];
  for (const row of rows) out.set(keys.map((_, i) => String(row[`k${i}`])).join(":"), Number(row.n));
  return out;
}

/** The numbers among `rows` that an account has verified: an address that has proven itself. */
async function provenNumbers(tx: DbOrTx, rows: OutgoingMessage[]): Promise<Set<string>> {
  const numbers = distinct(rows.filter((row) => isPhone(row.channel)).map((row) => row.recipient));
  if (numbers.length === 0) return new Set();
  const found = await tx.select({ phone: users.phone }).from(users).where(inArray(users.phone, numbers));
  return new Set(found.map((row) => row.phone).filter((phone): phone is string => phone !== null));
}
