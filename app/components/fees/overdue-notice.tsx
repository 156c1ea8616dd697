import { CircleAlert } from "lucide-react";
import { formatDate, formatRupees } from "#common/format.ts";

/** What a defaulter sees on their Fees page: what is overdue and for how long (the institute's policy shows below it). */
export interface OverdueNoticeProps {
  overdue: number;
  daysOverdue: number;
  oldestDueOn: string;
}

/**
 * The notice on a student's Fees page when they are a defaulter (issue 42 §5): overdue for more
 * than the institute's days; on a parent's page it names the child (`whose`). The figures are the
 * server's, derived from the ledger.
 */
export function OverdueNotice({
  overdue,
  daysOverdue,
  oldestDueOn,
  whose = null,
}: OverdueNoticeProps & { whose?: string | null }) {
  return (
    <div role="alert" className="flex gap-3 rounded-lg border border-destructive/40 bg-destructive/10 p-4 text-sm">
      <CircleAlert className="mt-0.5 size-5 shrink-0 text-destructive" aria-hidden />
      <div className="grid gap-1">
        <p className="font-semibold text-destructive">
          {whose ? `${whose}'s fees are overdue` : "Your fees are overdue"}
        </p>
        <p>
          {formatRupees(overdue)} is overdue by {daysOverdue} days (the oldest due was on {formatDate(oldestDueOn)}).
          Please pay it as soon as you can.
        </p>
      </div>
    </div>
  );
}
