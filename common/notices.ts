/** In-app notices (trials started and ended, refunds) as the admin panel and the business area show them. */
export type NoticeKind = "trial-started" | "trial-converted" | "trial-ended" | "refund";

export interface NoticeJson {
  _id: string;
  kind: NoticeKind;
  title: string;
  body: string;
  centerId: string | null;
  createdAt: string;
  /** Owners' notices only: when they marked it read. */
  readAt: string | null;
}
