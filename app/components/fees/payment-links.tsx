import { Form } from "react-router";
import { Send } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { formatDate } from "#common/format.ts";
import type { FeeDueJson } from "#common/validation/fees.ts";
import { FEE_LINK_STATUS_LABELS, type FeePaymentLinkJson } from "#common/validation/fee-online.ts";

const TONE = {
  created: "warning",
  partially_paid: "default",
  paid: "success",
  expired: "muted",
  cancelled: "muted",
} as const;

/**
 * A due's payment link on the owner's account detail (issue 42 §3): its newest link with the
 * status the gateway's webhooks gave it, and "Send payment link" while something is owed (the
 * page's action makes it on the institute's account and sends it to the student).
 */
export function DueLinkCell({
  due,
  links,
  busy,
}: {
  due: Pick<FeeDueJson, "_id" | "label" | "balance">;
  links: FeePaymentLinkJson[];
  busy: boolean;
}) {
  const latest = links.find((l) => l.dueId === due._id);
  return (
    <div className="grid justify-items-end gap-1">
      {latest && (
        <div className="flex flex-wrap items-center justify-end gap-2 text-xs">
          <Badge tone={TONE[latest.status]}>{FEE_LINK_STATUS_LABELS[latest.status]}</Badge>
          <a
            href={latest.url}
            target="_blank"
            rel="noreferrer"
            className="max-w-48 truncate underline-offset-4 hover:underline"
          >
            {latest.url}
          </a>
          {latest.expiresAt && latest.status === "created" && (
            <span className="text-muted-foreground">until {formatDate(latest.expiresAt)}</span>
          )}
        </div>
      )}
      {due.balance > 0 && (
        <Form method="post">
          <input type="hidden" name="intent" value="link" />
          <input type="hidden" name="dueId" value={due._id} />
          <Button
            type="submit"
            size="sm"
            variant="outline"
            disabled={busy}
            aria-label={`Send payment link for ${due.label}`}
          >
            <Send className="size-4" aria-hidden /> Send payment link
          </Button>
        </Form>
      )}
    </div>
  );
}
