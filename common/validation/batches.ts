import * as v from "valibot";
import { calendarDate as dateText } from "./dates.ts";
import { text } from "./account.ts";
import { storable } from "./storable.ts";
import { isUuid } from "./ids.ts";
import type { LearningItemJson } from "../content-types.ts";
import type { ContentType } from "./content.ts";

/** Batches (issue 41 §1, decision 0042): the API's bodies and the messages people read. */

export const BATCH_NOT_FOUND = "Batch not found";
export const BATCH_ENDS_BEFORE_START = "The batch cannot end before it starts.";
export const BATCH_CAPACITY = "Capacity must be a whole number of seats, at least 1 (leave it out for no limit).";
export const BATCH_TEACHERS_MAX = 20;
export const BATCH_ADMIT_MAX = 200;
/** An admission CSV: name,email,phone with a header row, at most this many rows and bytes. */
export const BATCH_CSV_LIMITS = { maxRows: 1000, maxBytes: 256 * 1024, maxColumns: 10, maxRowChars: 2000 } as const;
export const BATCH_CSV_HEADER = ["name", "email", "phone"] as const;
export const NOT_A_TEACHER = (who: string) =>
  `${who} does not hold a teacher's, creator's or owner's role in this institute.`;
export const NOT_A_FEE_PLAN = "Choose one of the institute's fee plans.";
export const NOT_A_STUDENT = (who: string) => `${who} is not a student of this institute.`;
export const STUDENT_NOT_IN_BATCH = "This student is not in this batch.";
export const MOVE_TO_SAME = "The student is already in that batch.";
export const LEAD_NOT_FOUND = "Lead not found";
export const BATCH_CONTENT_NOT_FOUND =
  "No such content in this institute: a batch opens the institute's own items, tests and series.";
export const BATCH_CONTENT_NOT_IN_BATCH = "That content is not in this batch.";
export const leadUnreachable = (phone: string) =>
  `This lead left no e-mail address and no account has verified the number ${phone}: ask them to sign up on your site, or admit them with an e-mail address (one row of a CSV).`;

const optionalText = (label: string, max: number) =>
  v.optional(
    v.pipe(
      v.string(`${label} must be text`),
      storable(label),
      v.trim(),
      v.maxLength(max, `${label} is too long (${max} characters at most)`),
    ),
  );

const uuidList = (label: string, max: number) =>
  v.pipe(
    v.array(
      v.pipe(v.string(`${label} must be ids`), v.check(isUuid, `${label} must be ids`)),
      `${label} must be a list of ids`,
    ),
    v.maxLength(max, `${label}: at most ${max} at once`),
  );

/** `POST /api/batches`: its fee plan (issue 42) is assigned to each student admitted into it. */
export const BatchInput = v.pipe(
  v.object({
    name: v.pipe(
      text("Batch name is required"),
      v.trim(),
      v.nonEmpty("Batch name is required"),
      v.maxLength(120, "Batch name is too long (120 characters at most)"),
    ),
    centerId: v.optional(v.pipe(v.string("Institute not found"), v.check(isUuid, "Institute not found"))),
    course: optionalText("Course", 120),
    startsOn: dateText("Start date"),
    endsOn: v.optional(dateText("End date")),
    capacity: v.optional(
      v.nullable(
        v.pipe(
          v.number(BATCH_CAPACITY),
          v.integer(BATCH_CAPACITY),
          v.minValue(1, BATCH_CAPACITY),
          v.maxValue(100_000, BATCH_CAPACITY),
        ),
      ),
    ),
    medium: optionalText("Medium", 40),
    centre: optionalText("Centre", 120),
    teacherIds: v.optional(uuidList("Teachers", BATCH_TEACHERS_MAX), []),
    feePlanId: v.optional(v.pipe(v.string(NOT_A_FEE_PLAN), v.check(isUuid, NOT_A_FEE_PLAN))),
  }),
  v.forward(
    v.check((b) => !b.endsOn || b.endsOn >= b.startsOn, BATCH_ENDS_BEFORE_START),
    ["endsOn"],
  ),
);
export type BatchInput = v.InferOutput<typeof BatchInput>;

/** `POST /api/batches/{id}/students`: accounts that are the institute's students, or a CSV (name,email,phone). */
export const ADMIT_ONE_OF = "Give studentIds (a list of ids) or csv (name,email,phone with a header row)";
export const AdmitInput = v.pipe(
  v.object({
    studentIds: v.optional(v.pipe(uuidList("Students", BATCH_ADMIT_MAX), v.minLength(1, "Name at least one student"))),
    csv: v.optional(v.string("The CSV must be text")),
  }),
  v.forward(
    v.check((b) => (b.studentIds === undefined) !== (b.csv === undefined), ADMIT_ONE_OF),
    ["studentIds"],
  ),
);

export const MoveInput = v.object({
  toBatchId: v.pipe(v.string(BATCH_NOT_FOUND), v.check(isUuid, BATCH_NOT_FOUND)),
});

export const LeadAdmitInput = v.object({
  enquiryId: v.pipe(v.string(LEAD_NOT_FOUND), v.check(isUuid, LEAD_NOT_FOUND)),
});

/** `POST /api/batches/{id}/contents`: an item, test or series of the batch's institute. */
export const BatchContentInput = v.object({
  contentId: v.pipe(v.string(BATCH_CONTENT_NOT_FOUND), v.check(isUuid, BATCH_CONTENT_NOT_FOUND)),
});

/** `PUT /api/batches/{id}/teachers`: the batch's teachers, all of them (an empty list: none). */
export const TeachersInput = v.object({
  teacherIds: uuidList("Teachers", BATCH_TEACHERS_MAX),
});

export const BatchesQuery = v.object({
  centerId: v.optional(v.pipe(v.string("Institute not found"), v.check(isUuid, "Institute not found"))),
});

export const BATCH_STUDENT_STATUSES = ["admitted", "waitlisted", "moved", "left"] as const;
export type BatchStudentStatus = (typeof BATCH_STUDENT_STATUSES)[number];

export interface BatchJson {
  _id: string;
  centerId: string;
  name: string;
  course: string | null;
  startsOn: string;
  endsOn: string | null;
  capacity: number | null;
  medium: string | null;
  centre: string | null;
  teachers: { _id: string; name: string }[];
  feePlan: { _id: string; name: string } | null;
  admitted: number;
  waitlisted: number;
  createdAt: string;
}

export interface BatchStudentJson {
  _id: string;
  studentId: string;
  name: string;
  email: string;
  status: BatchStudentStatus;
  position: number | null;
  admittedAt: string | null;
  waitlistedAt: string | null;
  leftAt: string | null;
  movedTo: string | null;
}

/** A content a batch opens to its admitted students. */
export interface BatchContentJson {
  _id: string;
  title: string;
  type: ContentType;
  addedAt: string;
}

/** People of the institute the Batches page offers: students to admit, teachers to name. */
export interface BatchPersonJson {
  _id: string;
  name: string;
  email: string;
}

/** What a student's batch gives them, for their own area (marked as from the batch). */
export interface StudentBatchContentJson {
  batch: { _id: string; name: string };
  addedAt: string;
  content: LearningItemJson;
  /** Held back by the institute's defaulter policy while fees are overdue (issue 42 §5): its words; null when open. */
  withheld: string | null;
}

/** `PUT /api/batches/{id}/fee-plan`: the plan students admitted from now on are assigned (null: none). */
export const FeePlanChoice = v.object({
  feePlanId: v.nullable(v.pipe(v.string(NOT_A_FEE_PLAN), v.check(isUuid, NOT_A_FEE_PLAN))),
});
