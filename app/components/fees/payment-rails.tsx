import { paymentRails } from "#common/fee-rails.ts";
import { toPaise } from "#common/fees.ts";
import type { FeeAccountJson } from "#common/validation/fees.ts";

/** How an account's dues can be paid, by their amounts (issue 42 §7, common/fee-rails.ts). */
export function PaymentRailsNote({ account }: { account: Pick<FeeAccountJson, "dues"> }) {
  const rails = paymentRails(account.dues.map((d) => ({ dueOn: d.dueOn, amount: toPaise(d.amount - d.discount) })));
  return (
    <div className="grid gap-1 text-sm text-muted-foreground" aria-label="Ways to pay">
      <p>{rails.oneTime}</p>
      {rails.recurringWords && <p>{rails.recurringWords}</p>}
    </div>
  );
}
