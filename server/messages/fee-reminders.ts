import { and, asc, eq, like, or, sql } from "drizzle-orm";
import { centers, feeAccounts, feeDues, feeSettings, messages as messageRows, users } from "../db/schema/index.ts";
import type { Db, DbOrTx } from "../db/types.ts";
import { runInTenantScope } from "../db/tenant-scope.ts";
import { familyContactsOf, type FamilyContact } from "../db/families.ts";
import { conflict, notFound } from "../http/errors.ts";
import type { MessageService } from "./service.ts";
import type { LinkCenter, SiteLinks } from "./links.ts";
import { messageDate } from "./format.ts";
import { FEE_SETTING_DEFAULTS, reminderStage, toRupees, type ReminderStage } from "#common/fees.ts";
import { indiaDate, indiaInstant } from "#common/india-dates.ts";
import { formatRupees } from "#common/format.ts";
import { FEE_ACCOUNT_NOT_FOUND } from "#common/validation/fees.ts";
import { FEE_NOTHING_OVERDUE, alreadyReminded } from "#common/validation/fee-dues.ts";

/**
 * The ledger's reading of dues (server/services/fees/statements.ts `ledgerDues`), given by the
 * services that own it: a due's balance and days overdue on a day are derived there, once.
 */
export type LedgerDues = (
  db: DbOrTx,
  scope: { dueIds?: string[]; accountIds?: string[] },
  on: string,
) => Promise<
  {
    due: { id: string; accountId: string; label: string; dueOn: string };
    figures: { balance: number; overdueDays: number };
  }[]
>;

/** Whom a fee reminder goes to: a family contact, and the Fees page their pay link leads to. */
export type FeeReminderRecipient = FamilyContact & { page: "/student/fees" | "/parent/fees" };

/** The student and each parent linked to them at `centerId` (decision 0047), each with their own Fees page. */
export async function feeReminderRecipients(
  tx: DbOrTx,
  studentId: string,
  centerId: string,
): Promise<FeeReminderRecipient[]> {
  return (await familyContactsOf(tx, studentId, centerId)).map((c) => ({
    ...c,
    page: c.role === "student" ? "/student/fees" : "/parent/fees",
  }));
}

const TEMPLATE_OF = {
  before: "fee-reminder-before",
  on: "fee-reminder-on",
  after: "fee-reminder-after",
} as const satisfies Record<ReminderStage, string>;

/** A reminder's values and key, for one account's student and one or more of its dues. */
interface Reminder {
  centerId: string;
  studentId: string;
  name: string;
  institute: string;
  site: LinkCenter;
  amount: number;
  label: string;
  dueOn: string;
  template: (typeof TEMPLATE_OF)[ReminderStage];
  key: string;
}

/** A due to remind of today, before its balance is read. */
type Pending = Omit<Reminder, "amount"> & { dueId: string };

/**
 * Fee reminders (issue 42 §4), run each minute by the reminders' clock (`Reminders.run`) on every
 * instance. On India date `today`, each due whose last date is the institute's days ahead
 * (`remindDaysBefore`), today (`remindOnDay`) or its days behind (`remindDaysAfter`) — from
 * `fee_settings`, else 3 / on / 3 — and that still has a balance on that day, derived from the
 * ledger, gets one message per stage: WhatsApp and SMS to a verified number, and e-mail, each
 * with the student's Fees page on the institute's site to pay at. The key
 * `fee-reminder:{due}:{stage}` is unique, so however many runs and instances meet, a due is
 * reminded once per stage; a due settled by then is not reminded at all.
 */
export class FeeReminders {
  private readonly deps: { db: Db; messages: MessageService; links: SiteLinks; ledger: LedgerDues };
  /** The clock a one-click reminder reads; tests give their own. */
  private readonly now: () => Date;

  constructor(deps: FeeReminders["deps"] & { now?: () => Date }) {
    this.deps = deps;
    this.now = deps.now ?? (() => new Date());
  }

  async run(now = this.now()): Promise<void> {
    const { db } = this.deps;
    const today = indiaDate(now);
    const before = sql`${today}::date + coalesce(${feeSettings.remindDaysBefore}, ${FEE_SETTING_DEFAULTS.remindDaysBefore})`;
    const after = sql`${today}::date - coalesce(${feeSettings.remindDaysAfter}, ${FEE_SETTING_DEFAULTS.remindDaysAfter})`;
    // Every institute's dues whose last date is one of today's three, in the platform's scope.
    const candidates = await runInTenantScope(null, () =>
      db
        .select({
          dueId: feeDues.id,
          dueOn: feeDues.dueOn,
          label: feeDues.label,
          centerId: feeDues.centerId,
          studentId: feeAccounts.studentId,
          name: users.name,
          institute: centers.instituteName,
          slug: centers.slug,
          customDomain: centers.customDomain,
          remindDaysBefore: feeSettings.remindDaysBefore,
          remindOnDay: feeSettings.remindOnDay,
          remindDaysAfter: feeSettings.remindDaysAfter,
          mandateCovers: mandateCovers(),
        })
        .from(feeDues)
        .innerJoin(feeAccounts, eq(feeAccounts.id, feeDues.accountId))
        .innerJoin(users, eq(users.id, feeAccounts.studentId))
        .innerJoin(centers, eq(centers.id, feeDues.centerId))
        .leftJoin(feeSettings, eq(feeSettings.centerId, feeDues.centerId))
        .where(
          and(
            // An institute whose site is offline has no Fees page to pay at.
            eq(centers.status, "active"),
            or(eq(feeDues.dueOn, today), sql`${feeDues.dueOn} = ${before}`, sql`${feeDues.dueOn} = ${after}`),
          ),
        )
        .orderBy(asc(feeDues.centerId), asc(feeDues.dueOn)),
    );
    const byCenter = new Map<string, Pending[]>();
    for (const row of candidates) {
      const stage = reminderStage(row.dueOn, today, {
        remindDaysBefore: row.remindDaysBefore ?? FEE_SETTING_DEFAULTS.remindDaysBefore,
        remindOnDay: row.remindOnDay ?? FEE_SETTING_DEFAULTS.remindOnDay,
        remindDaysAfter: row.remindDaysAfter ?? FEE_SETTING_DEFAULTS.remindDaysAfter,
      });
      // A standing instruction collects it: the family hears only if its debit did not go through.
      if (!stage || (stage !== "after" && row.mandateCovers)) continue;
      const reminder: Pending = {
        dueId: row.dueId,
        centerId: row.centerId,
        studentId: row.studentId,
        name: row.name,
        institute: row.institute,
        site: { slug: row.slug, customDomain: row.customDomain },
        label: row.label,
        dueOn: row.dueOn,
        template: TEMPLATE_OF[stage],
        key: `fee-reminder:${row.dueId}:${stage}`,
      };
      byCenter.set(row.centerId, [...(byCenter.get(row.centerId) ?? []), reminder]);
    }
    for (const [centerId, reminders] of byCenter) await this.remindInstitute(centerId, reminders, today);
  }

  /** One institute's reminders of the day, in its scope: only dues with a balance left today. */
  private remindInstitute(centerId: string, reminders: Pending[], today: string) {
    const { db, ledger } = this.deps;
    return runInTenantScope(centerId, () =>
      db.transaction(async (tx) => {
        const owed = await ledger(tx, { dueIds: reminders.map((r) => r.dueId) }, today);
        const balanceOf = new Map(owed.map((d) => [d.due.id, d.figures.balance]));
        for (const reminder of reminders) {
          const balance = balanceOf.get(reminder.dueId) ?? 0;
          if (balance > 0) await this.send(tx, { ...reminder, amount: balance });
        }
      }),
    );
  }

  /**
   * The institute's one-click reminder to a defaulter (the dues page's Remind): now, with what is
   * overdue on the account (every due past its last date with a balance, named together, dated
   * by the oldest), at most once per India day: the key names the oldest overdue due and the day.
   */
  async remindNow(
    centerId: string,
    accountId: string,
    now = this.now(),
  ): Promise<{ accountId: string; studentId: string; name: string; dueIds: string[]; amount: number; on: string }> {
    const { db, ledger } = this.deps;
    const today = indiaDate(now);
    return runInTenantScope(centerId, () =>
      db.transaction(async (tx) => {
        const [account] = await tx
          .select({
            studentId: feeAccounts.studentId,
            name: users.name,
            institute: centers.instituteName,
            slug: centers.slug,
            customDomain: centers.customDomain,
          })
          .from(feeAccounts)
          .innerJoin(users, eq(users.id, feeAccounts.studentId))
          .innerJoin(centers, eq(centers.id, feeAccounts.centerId))
          .where(and(eq(feeAccounts.id, accountId), eq(feeAccounts.centerId, centerId)));
        if (!account) throw notFound(FEE_ACCOUNT_NOT_FOUND);
        const overdue = (await ledger(tx, { accountIds: [accountId] }, today)).filter(
          (d) => d.figures.overdueDays > 0 && d.figures.balance > 0,
        );
        if (overdue.length === 0) throw conflict(FEE_NOTHING_OVERDUE);
        const key = `fee-reminder:${overdue[0].due.id}:after:${today}`;
        const [sent] = await tx
          .select({ id: messageRows.id })
          .from(messageRows)
          .where(like(messageRows.dedupeKey, `${key}:%`))
          .limit(1);
        // Two clicks at once both get here; the key keeps their message to one all the same.
        if (sent) throw conflict(alreadyReminded(account.name));
        const amount = overdue.reduce((sum, d) => sum + d.figures.balance, 0);
        await this.send(tx, {
          centerId,
          studentId: account.studentId,
          name: account.name,
          institute: account.institute,
          site: { slug: account.slug, customDomain: account.customDomain },
          amount,
          label: overdue.map((d) => d.due.label).join(", "),
          dueOn: overdue[0].due.dueOn,
          template: TEMPLATE_OF.after,
          key,
        });
        return {
          accountId,
          studentId: account.studentId,
          name: account.name,
          dueIds: overdue.map((d) => d.due.id),
          amount: toRupees(amount),
          on: today,
        };
      }),
    );
  }

  private async send(tx: DbOrTx, r: Reminder): Promise<void> {
    const { messages, links } = this.deps;
    for (const recipient of await feeReminderRecipients(tx, r.studentId, r.centerId))
      await messages.send(tx, {
        template: r.template,
        values: {
          name: r.name,
          amount: formatRupees(toRupees(r.amount)),
          label: r.label,
          date: messageDate(indiaInstant(r.dueOn, 12 * 60)),
          institute: r.institute,
          link: links.to(r.site, recipient.page),
        },
        to: { email: recipient.email, phone: recipient.phone, userId: recipient.userId },
        centerId: r.centerId,
        dedupeKey: recipient.role === "student" ? r.key : `${r.key}:${recipient.userId}`,
      });
  }
}

/**
 * Whether a due's account has an active standing instruction (decision 0051) whose debit of this
 * due has not failed or been refused: before and on its last date, it is the mandate's to collect.
 */
function mandateCovers() {
  return sql<boolean>`(exists (select 1 from "fee_mandates" m where m."account_id" = ${feeDues.accountId} and m."status" = 'active')
    and not exists (select 1 from "fee_mandate_debits" d left join "orders" o on o."id" = d."order_id"
      where d."due_id" = ${feeDues.id} and (d."error" is not null or o."status" = 'failed')))`;
}
