import type { ContentType } from "./validation/content.ts";

/** The spec's Content (§3) as the API and the pages show it; money in rupees. */
export interface ContentJson {
  _id: string;
  title: string;
  description: string;
  type: ContentType;
  price: number;
  /** False for a paid item of an institute that has not connected its payment account: 'Not on sale yet'. */
  onSale: boolean;
  liveLink: string | null;
  /** When a live class starts (ISO), if the creator set it. */
  liveStartsAt: string | null;
  businessId: string | null;
  businessName: string | null;
  isActive: boolean;
  thumbnail: string | null;
  thumbnailUrl: string | null;
  file: { name: string; size: number; mime: string } | null;
  /** A short-lived signed link to the file, when the caller may open it. */
  fileUrl: string | null;
  resourceUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * A content as the catalog and the student pages show it. The file link and the live link are
 * there only for those who may have them (the live link for its students from 15 minutes
 * before the class); everyone sees whether a link exists.
 */
export interface LearningItemJson extends ContentJson {
  /** Whether the live class has a link at all. */
  hasLiveLink: boolean;
  /** When its students will see the link (null: already, or the class has no start time). */
  liveOpensAt: string | null;
  /** Whether the signed-in viewer is enrolled. */
  enrolled: boolean;
  /** Whether a batch the signed-in student is admitted to opens it (issue 41 §1): theirs without buying. */
  fromBatch: boolean;
  enrollmentId: string | null;
  /** When `fileUrl` stops working (pages renew it before then). */
  linkExpiresAt: string | null;
}

/** The spec's Enrollment (§3): enrollmentId and the content (title, type, description, resourceUrl, liveLink, businessName, …). */
export interface EnrollmentJson {
  enrollmentId: string;
  enrolledAt: string;
  content: LearningItemJson;
}
