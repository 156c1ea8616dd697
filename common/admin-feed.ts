/**
 * What the admin dashboard shows about the platform (client-safe: the server's AdminFeedService
 * answers in these shapes, the dashboard renders them).
 */
import type { NoticeJson } from "./notices.ts";

/** Spec §3 "Purchase notification". `createdAt` is when the purchase was paid (the event). */
export interface PurchaseNotification {
  _id: string;
  createdAt: string;
  orderedAt: string;
  plan: string;
  billing: string;
  currency: string;
  /** Minor units (paise). */
  amount: number;
  centerId: { _id: string; instituteName: string; domain: string | null; plan: string | null } | null;
  instituteName: string;
  domain: string;
  createdByName: string;
  ownerName: string;
  createdByEmail: string;
  email: string;
  businessId: { _id: string; name: string; email: string };
}

/** Spec §3 "Template selection notification". */
export interface SelectionNotification {
  _id: string;
  appliedAt: string;
  createdAt: string;
  templateId: string;
  centerId: { _id: string; instituteName: string; domain: string | null };
  businessId: { _id: string; name: string; email: string } | null;
  businessName: string | null;
  businessEmail: string | null;
}

export interface NotificationState {
  purchasesSeenAt: string | null;
  selectionsSeenAt: string | null;
  purchasesClearedAt: string | null;
  selectionsClearedAt: string | null;
  noticesSeenAt: string | null;
  noticesClearedAt: string | null;
}

export interface AdminNotifications {
  purchases: PurchaseNotification[];
  selections: SelectionNotification[];
  /** Trials started, converted and ended, and refunds: kept apart from paid purchases. */
  notices: NoticeJson[];
  unread: { purchases: number; selections: number; notices: number; total: number };
  state: NotificationState;
}

export interface RoleStats {
  collections: { businesses: number; students: number; creators: number };
}

/** Mock tests on the platform: published (or closed) tests, and sittings started and submitted. */
export interface TestStats {
  published: number;
  attempts: number;
  submitted: number;
}

/** Centers by what keeps them online: a paid plan, a running trial, or nothing. */
export interface CenterStats {
  paid: number;
  trials: number;
  /** Trials that ended unpaid and centers whose plan ran out or was refunded. */
  lapsed: number;
}

export interface Growth {
  /** New business accounts this calendar month and last (India time). */
  thisMonth: number;
  lastMonth: number;
  /** Rounded change in percent; null when last month had none to compare with. */
  percent: number | null;
}

export type ActivityKind = "purchase" | "template" | "center" | "booking" | "trial" | "refund";
export interface ActivityItem {
  id: string;
  kind: ActivityKind;
  at: string;
  title: string;
  detail: string;
}

export const BADGE_CAP = 99;

/** Spec §9: the bell's badge is capped at 99. */
export function badgeLabel(unread: number): string | null {
  if (unread <= 0) return null;
  return unread > BADGE_CAP ? `${BADGE_CAP}+` : String(unread);
}

/** The newest times among what the panel shows, to store as "seen" (mark all read). */
export function newestShown(data: Pick<AdminNotifications, "purchases" | "selections" | "notices">): {
  purchasesSeenAt: string | null;
  selectionsSeenAt: string | null;
  noticesSeenAt: string | null;
} {
  const newest = (times: string[]) => times.reduce<string | null>((max, t) => (!max || t > max ? t : max), null);
  return {
    purchasesSeenAt: newest(data.purchases.map((p) => p.createdAt)),
    selectionsSeenAt: newest(data.selections.map((s) => s.appliedAt)),
    noticesSeenAt: newest(data.notices.map((n) => n.createdAt)),
  };
}

/** Whether an item is newer than the admin's last-seen time for its kind. */
export function isUnread(at: string, seenAt: string | null, clearedAt: string | null): boolean {
  const since = [seenAt, clearedAt].filter((t): t is string => Boolean(t)).map((t) => new Date(t).getTime());
  return since.length === 0 || new Date(at).getTime() > Math.max(...since);
}
