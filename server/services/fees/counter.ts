import { parseWith } from "../../http/errors.ts";
import { DeskPaymentInput, type FeeReceiptJson } from "#common/validation/fees.ts";
import type { FeeChequeJson } from "#common/validation/fee-cheques.ts";
import type { FeeDesk } from "./desk.ts";
import type { FeeCheques } from "./cheques.ts";

/** What the front desk took: a receipt (none yet for a post-dated cheque) and the cheque, if it was one. */
export interface TakenAtCounter {
  receipt: FeeReceiptJson | null;
  cheque: FeeChequeJson | null;
}

/**
 * The front desk's one way to take money (issue 42 §3), for the API and the Fees page alike:
 * cash, UPI and bank transfers are receipted at once; a cheque or DD goes through the cheque
 * desk, so it lives in the PDC register and can be deposited, cleared or bounced (receipted when
 * current, held when post-dated).
 */
export class FeeCounter {
  private readonly deps: { desk: FeeDesk; cheques: FeeCheques };

  constructor(deps: FeeCounter["deps"]) {
    this.deps = deps;
  }

  async take(actorId: string, centerId: string, accountId: string, input: unknown): Promise<TakenAtCounter> {
    const body = parseWith(DeskPaymentInput, input);
    if (body.mode !== "cheque" && body.mode !== "dd")
      return { receipt: await this.deps.desk.takeAtDesk(actorId, centerId, accountId, input), cheque: null };
    const raw = input as { amount: unknown; reference: unknown; bank: unknown; chequeDate: unknown };
    const cheque = await this.deps.cheques.take(actorId, centerId, accountId, {
      kind: body.mode,
      number: raw.reference,
      bank: raw.bank,
      chequeDate: raw.chequeDate,
      amount: raw.amount,
    });
    const receipt = cheque.receipt ? await this.deps.desk.receiptJson(cheque.receipt._id) : null;
    return { receipt, cheque };
  }
}
