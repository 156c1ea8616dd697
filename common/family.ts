/**
 * Parents and their children at an institute (issue 41, decision 0047): the product's words for the
 * link, the consent notice a parent answers, and the refusals. Shared by the pages and the API.
 */

export const GUARDIAN_RELATIONS = ["mother", "father", "guardian"] as const;
export type GuardianRelation = (typeof GUARDIAN_RELATIONS)[number];
export const RELATION_LABELS: Record<GuardianRelation, string> = {
  mother: "Mother",
  father: "Father",
  guardian: "Guardian",
};

export const GUARDIAN_STATUSES = ["invited", "active", "declined", "withdrawn", "removed"] as const;
export type GuardianStatus = (typeof GUARDIAN_STATUSES)[number];
export const GUARDIAN_STATUS_LABELS: Record<GuardianStatus, string> = {
  invited: "Invited",
  active: "Linked",
  declined: "Declined",
  withdrawn: "Consent withdrawn",
  removed: "Removed",
};

/** How long a parent's invitation link can be used. */
export const FAMILY_INVITE_TTL_DAYS = 7;

/**
 * The consent notice (the DPDP Act, 2023, s. 9: a parent's verifiable consent before a child's
 * data is processed). Its version is stored with every answer beside the exact words shown, so a
 * new wording gets a new version and old answers keep what their parent read.
 */
export const CONSENT_NOTICE_VERSION = "2026-11-29";
export function consentNotice(institute: string, child: string): string {
  return [
    `${institute} uses Pathshala to run its classes. To teach ${child}, it keeps ${child}'s name, contact details, batch, timetable, attendance, test results and fee account.`,
    `If you agree, you will see ${child}'s timetable, attendance, test results and fees with receipts, you can pay fees online, and ${institute} will tell you on WhatsApp or SMS when ${child} is absent or a fee is due.`,
    `Your mobile number and name are seen only by ${institute}'s staff, never by other families.`,
    `You can withdraw this consent at any time from your parent's page: ${institute} then stops showing you ${child}'s record and stops messaging you about ${child}. You can also download everything Pathshala holds about ${child} there.`,
  ].join("\n\n");
}

/** The longest search the Students page sends: a name, an e-mail address or a phone number. */
export const LONGEST_STUDENT_SEARCH = 100;

export const FAMILY_TEXTS = {
  notFound: "Invitation not found. Ask the institute for a new link.",
  expired: "This invitation has expired. Ask the institute to send a new one.",
  answered: "This invitation has already been answered.",
  ended: "This invitation is no longer valid. Ask the institute to send a new one.",
  signInWithNumber: (masked: string) =>
    `This invitation was sent to ${masked}. Sign in with a code sent to that number to answer it.`,
  noticeChanged: "The consent notice has changed since this page was opened. Please read it again.",
  codeSent: (masked: string) => `We sent a 6-digit code to ${masked} on WhatsApp and by SMS. It works for 10 minutes.`,
  nameAndEmailNeeded: "Your name and e-mail address are needed to make your parent's account.",
  emailTaken:
    "An account already uses this e-mail address. Sign in to it, add this mobile number to it, then open the link again.",
  granted: (child: string) => `Thank you. You can now follow ${child}'s classes, attendance and fees.`,
  refused: (institute: string) =>
    `You did not agree. Your answer is recorded: ${institute} will not show you your child's record or message you about it.`,
  alreadyLinked: (phone: string) => `${phone} is already linked to this student, or has an invitation waiting.`,
  inviteSent: (name: string, masked: string) =>
    `An invitation for ${name} was sent to ${masked} on WhatsApp and by SMS.`,
  childNotFound: "No such child. Only your own children's records can be seen.",
  studentNotFound: "Student not found",
  notStudentHere: "Only a student of this institute can have parents linked.",
  ownOnly: "You can add parents to your own record only.",
  selfParent: "You cannot add yourself as your own parent.",
  linkNotFound: "Parent link not found",
  withdrawn: (child: string, institute: string) =>
    `Consent withdrawn. ${institute} no longer shows you ${child}'s record or messages you about ${child}.`,
  removed: "The parent's link was removed.",
} as const;

/** A mobile number shown to someone who may not know it in full: its last four digits. */
export function maskPhone(phone: string): string {
  return `${phone.slice(0, 3)} ••••• ${phone.slice(-4)}`;
}

/** One parent of a student, as the institute and the student see it. */
export interface GuardianJson {
  _id: string;
  studentId: string;
  name: string;
  relation: GuardianRelation;
  phone: string;
  status: GuardianStatus;
  invitedAt: string;
  linkedAt: string | null;
  endedAt: string | null;
  /** Whether the link's invitation can still be answered. */
  expired: boolean;
}

/** One of a parent's children, as the parent sees it; `_id` is the link's id, the parent's handle on the child. */
export interface ChildJson {
  _id: string;
  studentId: string;
  name: string;
  centerId: string;
  institute: string;
  relation: GuardianRelation;
  linkedAt: string;
}

/** What an invitation link shows before it is answered. */
export interface FamilyInvitationJson {
  institute: string;
  child: string;
  name: string;
  relation: GuardianRelation;
  phone: string;
  state: "open" | "expired" | "answered" | "ended";
  notice: { version: string; text: string };
}

/** A consent answer, as the record keeps it. */
export interface ConsentJson {
  _id: string;
  answer: "granted" | "refused" | "withdrawn";
  noticeVersion: string;
  noticeText: string;
  at: string;
}
