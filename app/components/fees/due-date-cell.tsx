import { Td } from "~/components/ui/table";
import { Badge } from "~/components/ui/badge";
import { formatDate } from "#common/format.ts";

/** A due's last date in a dues table, marked with how many days it is overdue (the student's, the parent's and the owner's tables). */
export function DueDateCell({ due }: { due: { dueOn: string; overdueDays: number } }) {
  return (
    <Td>
      {formatDate(due.dueOn)}
      {due.overdueDays > 0 && (
        <Badge tone="destructive" className="ml-2">
          {due.overdueDays} days overdue
        </Badge>
      )}
    </Td>
  );
}
