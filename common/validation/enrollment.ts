import * as v from "valibot";
import { text } from "./account.ts";
import { isUuid } from "./content.ts";

/** Enrolment rules shared by the pages and the API (spec §7 `POST /api/student/enroll`). */

export const CONTENT_REQUIRED = "Please choose a course to enrol in.";
export const CONTENT_UNAVAILABLE = "This course is not available.";
export const STUDENTS_ONLY = "Only student accounts can enrol. Please sign in as a student.";
export const ORDER_OF_ANOTHER_ACCOUNT = "This order belongs to another account.";
export const PRICE_TOO_LOW = "This course cannot be bought online: its price is below ₹1.";

export const EnrollSchema = v.object({
  contentId: v.pipe(
    text(CONTENT_REQUIRED, "contentId"),
    v.trim(),
    v.nonEmpty(CONTENT_REQUIRED),
    v.check(isUuid, CONTENT_UNAVAILABLE),
  ),
});
export type EnrollInput = v.InferOutput<typeof EnrollSchema>;
