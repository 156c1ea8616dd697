import { pgEnum } from "drizzle-orm/pg-core";
import { MESSAGE_CHANNELS, MESSAGE_STATUSES } from "#common/messages.ts";
import { INVOICE_KINDS } from "#common/gst.ts";
import { MESSAGE_LANGUAGES } from "#common/validation/message-language.ts";

export const roleEnum = pgEnum("role", ["student", "creator", "business", "admin"]);
export const sessionKindEnum = pgEnum("session_kind", ["web", "access", "refresh"]);
export const billingEnum = pgEnum("billing", ["monthly", "quarterly", "yearly"]);
export const centerStatusEnum = pgEnum("center_status", ["active", "inactive"]);
export const paymentStatusEnum = pgEnum("payment_status", ["created", "paid", "failed"]);
/**
 * What an order buys (its subject): a plan (a new institute or a renewal), a content (course,
 * test, series), or a fee paid online against a student's fee account (issue 42 §3).
 */
export const orderSubjectEnum = pgEnum("order_subject", ["plan", "content", "fee"]);
/** "test" and "series" are mock tests and test series, sold and enrolled in as content is. */
export const contentTypeEnum = pgEnum("content_type", ["pdf", "video", "live", "test", "series"]);
export const enquiryStatusEnum = pgEnum("enquiry_status", ["new", "contacted", "enrolled"]);
/** A person's roles in an institute (issue 40); platform admin stays `users.role`. */
export const memberRoleEnum = pgEnum("member_role", ["owner", "staff", "teacher", "creator", "student", "parent"]);
export const memberStatusEnum = pgEnum("member_status", ["invited", "active", "removed"]);
/** A student's place in a batch (issue 41 §1): live while admitted or waitlisted, history once moved or left. */
export const batchStudentStatusEnum = pgEnum("batch_student_status", ["admitted", "waitlisted", "moved", "left"]);
/** A timetabled class's state (issue 41 §2): cancelled sessions stay, so a cancellation is shown, not lost. */
export const classSessionStatusEnum = pgEnum("class_session_status", ["scheduled", "cancelled"]);
/** Attendance marks (issue 41 §3), in the product's words Present, Absent, Late and Excused. */
export const attendanceStatusEnum = pgEnum("attendance_status", ["present", "absent", "late", "excused"]);
/** Where a mark came from; a hybrid session merges them into one row per student. */
export const attendanceSourceEnum = pgEnum("attendance_source", ["roll-call", "qr", "online", "correction"]);
/** What a fee ledger entry records (issue 42 §2); each is against one due. */
export const feeEntryKindEnum = pgEnum("fee_entry_kind", [
  "due",
  "discount",
  "payment",
  "late-fee",
  "waiver",
  "reversal",
  "charge",
  "refund",
  "cancellation",
]);
/** A cheque or DD at the front desk: post-dated ones are held until their date (issue 42 §3). */
export const feeChequeStatusEnum = pgEnum("fee_cheque_status", ["held", "deposited", "cleared", "bounced", "returned"]);
/** A Razorpay Payment Link for a due, as its webhooks report it. */
export const feeLinkStatusEnum = pgEnum("fee_link_status", [
  "created",
  "partially_paid",
  "paid",
  "expired",
  "cancelled",
]);
/** How money reached the institute: at its desk, or online through its own gateway account. */
export const feePaymentModeEnum = pgEnum("fee_payment_mode", ["cash", "cheque", "dd", "upi", "bank", "online"]);
/** A parent's link to a child (issue 41, decision 0047): invited, active once consent is given, then ended. */
/** A standing instruction's life (issue 42 §7): made, waiting for the bank, live, refused, ended. */
export const feeMandateStatusEnum = pgEnum("fee_mandate_status", [
  "created",
  "pending",
  "active",
  "rejected",
  "cancelled",
]);
export const feeMandateRailEnum = pgEnum("fee_mandate_rail", ["upi-autopay", "e-mandate"]);

export const guardianRelationEnum = pgEnum("guardian_relation", ["mother", "father", "guardian"]);
export const guardianStatusEnum = pgEnum("guardian_status", ["invited", "active", "declined", "withdrawn", "removed"]);
/** A parent's answer to the consent notice, or their later withdrawal of it. */
export const consentAnswerEnum = pgEnum("consent_answer", ["granted", "refused", "withdrawn"]);
export const refundStatusEnum = pgEnum("refund_status", ["pending", "processed", "failed"]);
export const noticeAudienceEnum = pgEnum("notice_audience", ["admins", "owner"]);
export const questionTypeEnum = pgEnum("question_type", ["single", "multiple", "numerical"]);
export const mockTestStatusEnum = pgEnum("mock_test_status", ["draft", "published", "closed"]);
export const resultReleaseEnum = pgEnum("result_release", ["immediate", "after-window", "manual"]);
export const attemptSubmitterEnum = pgEnum("attempt_submitter", ["student", "clock"]);
export const messageChannelEnum = pgEnum("message_channel", MESSAGE_CHANNELS);
export const messageStatusEnum = pgEnum("message_status", MESSAGE_STATUSES);
export const invoiceKindEnum = pgEnum("invoice_kind", INVOICE_KINDS);
/** The language of a person's or an institute's messages (issue 38 §6). */
export const messageLanguageEnum = pgEnum("message_language", MESSAGE_LANGUAGES);
