import { paymentRails } from "#common/fee-rails.ts";
import { toPaise } from "#common/fees.ts";
import type { FeeAccountJson } from "#common/validation/fees.ts";

/**
 * How an account's dues can be paid one at a time (issue 42 §7, common/fee-rails.ts); a monthly
 * plan's standing instruction is `StandingInstruction`'s to show.
 */
export function PaymentRailsNote({ account }: { account: Pick<FeeAccountJson, "dues"> }) {
  const rails = paymentRails(account.dues.map((d) => ({ dueOn: d.dueOn, amount: toPaise(d.amount - d.discount) })));
  return (
    <p className="text-sm text-muted-foreground" aria-label="Ways to pay">
      {rails.oneTime}
    </p>
  );
}
