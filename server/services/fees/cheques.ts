import { and, asc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import {
  feeAccounts,
  feeChequeEvents,
  feeCheques,
  feeReceiptReversals,
  feeReceipts,
  users,
} from "../../db/schema/index.ts";
import type { Db, Tx } from "../../db/types.ts";
import { badRequest, conflict, notFound, parseWith } from "../../http/errors.ts";
import {
  CHEQUE_MAX_AHEAD_DAYS,
  CHEQUE_MOVES,
  CHEQUE_NOT_FOUND,
  CHEQUE_VALID_DAYS,
  ChequeInput,
  ChequeStatusInput,
  bounceFeeReason,
  chequeBounced,
  chequeMoreThanOwed,
  chequeNotYetDue,
  chequeReturned,
  chequeTooFarAhead,
  illegalChequeMove,
  staleCheque,
  type ChequeStatus,
  type FeeChequeJson,
} from "#common/validation/fee-cheques.ts";
import { toRupees } from "#common/fees.ts";
import { addDays, indiaDate } from "#common/india-dates.ts";
import type { FeeDesk } from "./desk.ts";
import { dueStates, postCharge } from "./statements.ts";
import { feeSettingsOf } from "./settings.ts";

type ChequeRow = typeof feeCheques.$inferSelect;

/**
 * Cheques and demand drafts taken at the desk, and the post-dated cheque register (issue 42 §3).
 * A cheque dated today or earlier is receipted when taken ("subject to realisation"), through the
 * desk like any payment; a post-dated one is held without a receipt until it is deposited, on or
 * after its date. It then moves held → deposited → cleared or bounced, or held → returned (given
 * back). A bounce, or a receipted cheque given back, reverses its receipt; a bounce also charges
 * the institute's bounce fee. Each cheque is locked for its step, so a step is taken once.
 */
export class FeeCheques {
  private readonly db: Db;
  private readonly desk: FeeDesk;
  private readonly now: () => Date;

  constructor(deps: { db: Db; desk: FeeDesk; now?: () => Date }) {
    this.db = deps.db;
    this.desk = deps.desk;
    this.now = deps.now ?? (() => new Date());
  }

  /** Takes a cheque or DD against the account: receipted now when it is current, else held as a PDC. */
  async take(actorId: string, centerId: string, accountId: string, input: unknown): Promise<FeeChequeJson> {
    const body = parseWith(ChequeInput, input);
    const today = indiaDate(this.now());
    const refuse = (message: string) => badRequest(message, { issues: [{ field: "chequeDate", message }] });
    if (this.stale(body.chequeDate, today)) throw refuse(staleCheque(body.chequeDate));
    if (body.chequeDate > addDays(today, CHEQUE_MAX_AHEAD_DAYS)) throw refuse(chequeTooFarAhead(body.chequeDate));
    const id = await this.db.transaction(async (tx) => {
      let receiptId: string | null = null;
      if (body.chequeDate <= today) {
        const receipt = await this.desk.take(tx, actorId, centerId, accountId, {
          amount: body.amount,
          mode: body.kind,
          reference: body.number,
          paidOn: today,
          chequeDate: body.chequeDate,
        });
        receiptId = receipt.id;
      } else await this.roomForPostDated(tx, centerId, accountId, body.amount, today);
      const [cheque] = await tx
        .insert(feeCheques)
        .values({ centerId, accountId, ...body, status: "held", receiptId, createdById: actorId })
        .returning({ id: feeCheques.id });
      await tx
        .insert(feeChequeEvents)
        .values({ chequeId: cheque.id, centerId, fromStatus: null, toStatus: "held", byId: actorId });
      return cheque.id;
    });
    return this.get(centerId, id);
  }

  /** The cheque's next step; anything but held → deposited | returned and deposited → cleared | bounced is refused. */
  async move(actorId: string, centerId: string, chequeId: string, input: unknown): Promise<FeeChequeJson> {
    const { status, note } = parseWith(ChequeStatusInput, input);
    const today = indiaDate(this.now());
    await this.db.transaction(async (tx) => {
      const [cheque] = await tx
        .select()
        .from(feeCheques)
        .where(and(eq(feeCheques.id, chequeId), eq(feeCheques.centerId, centerId)))
        .for("update");
      if (!cheque) throw notFound(CHEQUE_NOT_FOUND);
      if (!CHEQUE_MOVES[cheque.status].includes(status)) throw conflict(illegalChequeMove(cheque.status, status));
      let receiptId = cheque.receiptId;
      if (status === "deposited") receiptId = await this.deposit(tx, actorId, cheque, today);
      if (status === "bounced" || status === "returned")
        await this.undo(tx, actorId, cheque, status === "bounced" ? chequeBounced : chequeReturned);
      if (status === "bounced") await this.chargeBounce(tx, actorId, cheque, today);
      await tx
        .update(feeCheques)
        .set({ status, receiptId, updatedAt: sql`now()` })
        .where(eq(feeCheques.id, cheque.id));
      await tx.insert(feeChequeEvents).values({
        chequeId: cheque.id,
        centerId,
        fromStatus: cheque.status,
        toStatus: status,
        note: note || null,
        byId: actorId,
      });
    });
    return this.get(centerId, chequeId);
  }

  /** The PDC register: the institute's cheques (of one status when given), by their dates. */
  list(centerId: string, status?: ChequeStatus): Promise<FeeChequeJson[]> {
    return this.cheques(and(eq(feeCheques.centerId, centerId), status ? eq(feeCheques.status, status) : undefined)!);
  }

  async get(centerId: string, chequeId: string): Promise<FeeChequeJson> {
    const [cheque] = await this.cheques(and(eq(feeCheques.id, chequeId), eq(feeCheques.centerId, centerId))!);
    if (!cheque) throw notFound(CHEQUE_NOT_FOUND);
    return cheque;
  }

  /** The institute a cheque belongs to (for the caller's role there), or null. */
  async centerOf(chequeId: string): Promise<string | null> {
    const [row] = await this.db
      .select({ centerId: feeCheques.centerId })
      .from(feeCheques)
      .where(eq(feeCheques.id, chequeId));
    return row?.centerId ?? null;
  }

  /** A cheque more than three months old: no bank pays it. */
  private stale(chequeDate: string, today: string): boolean {
    return chequeDate < addDays(today, -CHEQUE_VALID_DAYS);
  }

  /**
   * A post-dated cheque is money promised, not received: it may not promise more than the account
   * owes beyond the post-dated cheques it already holds, or its deposit would be refused.
   */
  private async roomForPostDated(tx: Tx, centerId: string, accountId: string, amount: number, today: string) {
    await this.desk.lockAccount(tx, centerId, accountId);
    const owed = (await dueStates(tx, accountId, today)).reduce((sum, d) => sum + d.balance, 0);
    const held = await tx
      .select({ amount: feeCheques.amount })
      .from(feeCheques)
      .where(and(eq(feeCheques.accountId, accountId), eq(feeCheques.status, "held"), isNull(feeCheques.receiptId)));
    const left = owed - held.reduce((sum, c) => sum + c.amount, 0);
    if (amount > left) throw conflict(chequeMoreThanOwed(toRupees(Math.max(0, left))));
  }

  /** Depositing receipts a post-dated cheque, on or after its date; a stale one is refused. */
  private async deposit(tx: Tx, actorId: string, cheque: ChequeRow, today: string): Promise<string> {
    if (cheque.chequeDate > today) throw conflict(chequeNotYetDue(cheque.chequeDate));
    if (this.stale(cheque.chequeDate, today)) throw conflict(staleCheque(cheque.chequeDate));
    if (cheque.receiptId) return cheque.receiptId;
    const receipt = await this.desk.take(tx, actorId, cheque.centerId, cheque.accountId, {
      amount: cheque.amount,
      mode: cheque.kind === "dd" ? "dd" : "cheque",
      reference: cheque.number,
      paidOn: today,
      chequeDate: cheque.chequeDate,
    });
    return receipt.id;
  }

  /** The money a bounced or returned cheque never brought: its receipt reversed, unless it already was. */
  private async undo(tx: Tx, actorId: string, cheque: ChequeRow, reason: (number: string) => string) {
    if (!cheque.receiptId) return;
    const [reversed] = await tx
      .select({ id: feeReceiptReversals.receiptId })
      .from(feeReceiptReversals)
      .where(eq(feeReceiptReversals.receiptId, cheque.receiptId));
    if (reversed) return;
    await this.desk.reverseIn(tx, actorId, cheque.centerId, cheque.receiptId, reason(cheque.number));
  }

  /** The institute's bounce fee, when it charges one, on the account's oldest open due. */
  private async chargeBounce(tx: Tx, actorId: string, cheque: ChequeRow, today: string) {
    const { bounceFee } = await feeSettingsOf(tx, cheque.centerId);
    if (bounceFee <= 0) return;
    await this.desk.lockAccount(tx, cheque.centerId, cheque.accountId);
    await postCharge(tx, {
      accountId: cheque.accountId,
      centerId: cheque.centerId,
      amount: bounceFee,
      reason: bounceFeeReason(cheque.number),
      actorId,
      on: today,
    });
  }

  private async cheques(where: SQL): Promise<FeeChequeJson[]> {
    const rows = await this.db
      .select({
        cheque: feeCheques,
        studentId: feeAccounts.studentId,
        student: users.name,
        planName: feeAccounts.planName,
        receiptNumber: feeReceipts.number,
        reversed: feeReceiptReversals.receiptId,
      })
      .from(feeCheques)
      .innerJoin(feeAccounts, eq(feeAccounts.id, feeCheques.accountId))
      .innerJoin(users, eq(users.id, feeAccounts.studentId))
      .leftJoin(feeReceipts, eq(feeReceipts.id, feeCheques.receiptId))
      .leftJoin(feeReceiptReversals, eq(feeReceiptReversals.receiptId, feeCheques.receiptId))
      .where(where)
      .orderBy(asc(feeCheques.chequeDate), asc(feeCheques.createdAt))
      .limit(1000);
    if (rows.length === 0) return [];
    const events = await this.db
      .select({ event: feeChequeEvents, by: users.name })
      .from(feeChequeEvents)
      .leftJoin(users, eq(users.id, feeChequeEvents.byId))
      .where(
        inArray(
          feeChequeEvents.chequeId,
          rows.map((r) => r.cheque.id),
        ),
      )
      .orderBy(asc(feeChequeEvents.at), asc(feeChequeEvents.id));
    return rows.map(({ cheque, studentId, student, planName, receiptNumber, reversed }) => ({
      _id: cheque.id,
      centerId: cheque.centerId,
      accountId: cheque.accountId,
      student: { _id: studentId, name: student },
      planName,
      kind: cheque.kind === "dd" ? "dd" : "cheque",
      number: cheque.number,
      bank: cheque.bank,
      chequeDate: cheque.chequeDate,
      amount: toRupees(cheque.amount),
      status: cheque.status,
      receipt: cheque.receiptId ? { _id: cheque.receiptId, number: receiptNumber!, reversed: Boolean(reversed) } : null,
      events: events
        .filter((e) => e.event.chequeId === cheque.id)
        .map(({ event, by }) => ({
          from: event.fromStatus,
          to: event.toStatus,
          note: event.note,
          by,
          at: event.at.toISOString(),
        })),
      createdAt: cheque.createdAt.toISOString(),
      updatedAt: cheque.updatedAt.toISOString(),
    }));
  }
}
