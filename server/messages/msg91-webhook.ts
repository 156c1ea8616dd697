import * as v from "valibot";
import { HttpError, validationError } from "../http/errors.ts";
import { timingSafeEqualText } from "../auth/tokens.ts";
import { findUnstorable, unstorableMessage } from "#common/validation/storable.ts";
import type { MessageService } from "./service.ts";

export const MSG91_WEBHOOK_TEXTS = {
  notConfigured: "SMS delivery reports are not configured",
  badToken: "Invalid webhook token",
  notReport: "The webhook's body is not an MSG91 delivery report",
} as const;

/** One delivery report, as MSG91's webhook v3 posts it (JSON) and v2 nests it (`data`, form-encoded). */
const ReportSchema = v.object({
  requestId: v.string(),
  status: v.union([v.string(), v.number()]),
  desc: v.optional(v.string()),
  failedReason: v.optional(v.string()),
});
const V2Schema = v.array(v.object({ requestId: v.string(), report: v.array(v.omit(ReportSchema, ["requestId"])) }));

type Report = v.InferOutput<typeof ReportSchema>;

/**
 * What a report means for the message: MSG91 reports 1 for delivered and 8 or a "submitted" or
 * "sent" description while the operator has it; every other code (2 failed, 9 NDNC, 16 rejected,
 * 17 blocked, 25 and 26 refused by DLT) is a failure with the reason given.
 */
export function statusOf(report: Pick<Report, "status" | "desc">): "sent" | "delivered" | "failed" {
  const code = String(report.status);
  const desc = report.desc ?? "";
  if (code === "1" || /^delivered$/i.test(desc)) return "delivered";
  if (code === "8" || /submitted|sent|pending/i.test(desc)) return "sent";
  return "failed";
}

/**
 * MSG91's delivery reports (configured in its panel as this webhook with `?token=` our secret; MSG91
 * does not sign its webhooks, so the unguessable token in the address is what is checked): each
 * report moves its message forward or marks it failed with MSG91's reason.
 */
export async function receiveMsg91Webhook(
  body: { json?: unknown; form?: Record<string, unknown> },
  token: string | undefined,
  secret: string | undefined,
  messages: MessageService,
): Promise<{ statuses: number }> {
  if (!secret) throw new HttpError(404, MSG91_WEBHOOK_TEXTS.notConfigured);
  if (!token || !timingSafeEqualText(token, secret)) throw new HttpError(403, MSG91_WEBHOOK_TEXTS.badToken);
  const reports = reportsIn(body);
  if (!reports) throw new HttpError(400, MSG91_WEBHOOK_TEXTS.notReport);
  // Text the database cannot keep (NUL, a lone surrogate) is refused, never looked up.
  const spoiled = findUnstorable(body.json ?? reports);
  if (spoiled) {
    const field = spoiled.join(".");
    throw validationError([{ field, message: unstorableMessage(field) }]);
  }
  let statuses = 0;
  for (const report of reports) {
    const status = statusOf(report);
    const reason = report.failedReason || report.desc || undefined;
    if (await messages.recordStatus("msg91", report.requestId, status, reason && `MSG91: ${reason}`)) statuses++;
  }
  return { statuses };
}

function reportsIn(body: { json?: unknown; form?: Record<string, unknown> }): Report[] | null {
  if (body.json !== undefined) {
    const many = v.safeParse(v.array(ReportSchema), body.json);
    if (many.success) return many.output;
    const one = v.safeParse(ReportSchema, body.json);
    return one.success ? [one.output] : null;
  }
  const data = body.form?.data;
  if (typeof data !== "string") return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(data);
  } catch {
    return null;
  }
  const v2 = v.safeParse(V2Schema, parsed);
  return v2.success
    ? v2.output.flatMap((r) => r.report.map((report) => ({ ...report, requestId: r.requestId })))
    : null;
}
