import { Hono, type Context } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { forbidden, jsonBody, notFound, parseWith } from "../http/errors.ts";
import { can, membershipOf, notAllowed } from "../auth/permissions.ts";
import { input, operation } from "./openapi.ts";
import { requireAuth } from "./guards.ts";
import { authorize, centerOnThisSite, requestCenterId } from "./member-guard.ts";
import { isUuid } from "#common/validation/ids.ts";
import {
  AdmitInput,
  BATCH_NOT_FOUND,
  BatchContentInput,
  BatchInput,
  BatchesQuery,
  FeePlanChoice,
  LeadAdmitInput,
  MoveInput,
  TeachersInput,
} from "#common/validation/batches.ts";

const DENIED = {
  403: "No role in this institute, or a role that does not allow this (batches.manage: owners and staff)",
  404: "No such institute, none named (centerId, the institute's domain or the header's choice), or another institute's on an institute's domain",
};
const BATCH_DENIED = {
  403: "A role in the batch's institute that does not allow this (batches.manage: owners and staff)",
  404: "No such batch, or one of an institute where you hold no role",
};
const CONTENTS = "{contents: [{_id, title, type, addedAt}]}";
const ADMISSION =
  "{admitted: [{_id, studentId, name, email, status, position, admittedAt, waitlistedAt, leftAt, movedTo}], waitlisted: [...], already: [...]}";

/**
 * `/api/batches` (issue 41 §1, decision 0042): an institute's batches and the students admitted
 * into them, for its owners and staff (batches.manage). A batch's institute is the one it belongs
 * to: a batch of an institute where the caller holds no role is not found.
 */
export function batchesRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  const db = database.db;

  /** The caller may manage the batch `id`'s institute (404 where they hold no role, 403 a role without batches.manage). */
  const atBatch = async (c: Context<AppEnv>) => {
    const { user } = requireAuth(c);
    const batchId = c.req.param("id") ?? "";
    const centerId = centerOnThisSite(
      c,
      isUuid(batchId) ? await services.batches.centerOf(batchId) : null,
      BATCH_NOT_FOUND,
    );
    const membership = await membershipOf(db, user.id, centerId);
    if (!membership || membership.roles.length === 0) throw notFound(BATCH_NOT_FOUND);
    if (!can(membership, "batches.manage")) throw forbidden(notAllowed("batches.manage"));
    return { user, centerId, batchId };
  };

  api.get(
    "/",
    operation({
      tag: "batches",
      auth: "business",
      summary: "The institute's batches with their teachers and counts of admitted and waiting students",
      responses: {
        200: "{batches: [{_id, centerId, name, course, startsOn, endsOn, capacity, medium, centre, teachers: [{_id, name}], admitted, waitlisted, createdAt}]}",
        ...DENIED,
      },
    }),
    input("query", BatchesQuery),
    async (c) => {
      const { centerId } = c.req.valid("query");
      const { membership } = await authorize(c, db, "batches.manage", centerId ?? requestCenterId(c));
      return c.json({ batches: await services.batches.list(membership.centerId) });
    },
  );

  api.get(
    "/people",
    operation({
      tag: "batches",
      auth: "business",
      summary:
        "The institute's people a batch can take, by account id (what admission's studentIds and teacherIds name): its live students, and those who may teach (a teacher's, creator's or owner's role)",
      responses: { 200: "{students: [{_id, name, email}], teachers: [{_id, name, email}]}", ...DENIED },
    }),
    input("query", BatchesQuery),
    async (c) => {
      const { centerId } = c.req.valid("query");
      const { membership } = await authorize(c, db, "batches.manage", centerId ?? requestCenterId(c));
      return c.json(await services.batches.people(membership.centerId));
    },
  );

  api.post(
    "/",
    operation({
      tag: "batches",
      auth: "business",
      summary:
        "Make a batch: name, course, start and end dates, capacity (none: no limit), medium, centre, teachers (people holding a teacher's, creator's or owner's role there) and fee plan (assigned to each student admitted)",
      body: BatchInput,
      responses: {
        201: "{batch}",
        400: "Bad input: a missing name or start date, an end before the start, a capacity below 1, a teacher who is not the institute's, a fee plan that is not the institute's",
        ...DENIED,
      },
    }),
    async (c) => {
      requireAuth(c);
      // Read first: bad input is a 400 naming its field, whoever asks, before the institute is looked for.
      const batch = parseWith(BatchInput, await jsonBody(c));
      const { user, membership } = await authorize(c, db, "batches.manage", batch.centerId ?? requestCenterId(c));
      return c.json({ batch: await services.batches.create(user, membership.centerId, batch) }, 201);
    },
  );

  api.get(
    "/:id",
    operation({
      tag: "batches",
      auth: "business",
      summary: "A batch with its students, its waiting list in order, and its history (students moved or gone)",
      responses: {
        200: `{batch, students: [{_id, studentId, name, email, status, position, admittedAt, waitlistedAt, leftAt, movedTo}], waitingList: [...], history: [...], contents: [{_id, title, type, addedAt}]}`,
        ...BATCH_DENIED,
      },
    }),
    async (c) => {
      const { centerId, batchId } = await atBatch(c);
      return c.json(await services.batches.detail(centerId, batchId));
    },
  );

  api.post(
    "/:id/students",
    operation({
      tag: "batches",
      auth: "business",
      summary:
        "Admit students: {studentIds} (the institute's students), or {csv} or a text/csv body (name,email,phone with a header row: each account found by e-mail or a verified number, else made from the e-mail address). Past the capacity they join the waiting list. A bad id or row refuses all of them, each named (`rows`: row number and why)",
      body: AdmitInput,
      responses: {
        200: ADMISSION,
        400: "An account that is not the institute's student; bad CSV rows, every one named in `rows` ({row, message}); nothing admitted",
        ...BATCH_DENIED,
        409: "An account was made with one of the addresses meanwhile: send it again",
        413: "A CSV over 256 KB or 1,000 rows, or a row over 2,000 characters",
      },
    }),
    async (c) => {
      const { user, centerId, batchId } = await atBatch(c);
      const type = (c.req.header("content-type") ?? "").split(";")[0].trim().toLowerCase();
      const body = type === "text/csv" ? { csv: await c.req.text() } : await jsonBody(c);
      return c.json(await services.batches.admit(user, centerId, batchId, body));
    },
  );

  api.post(
    "/:id/leads",
    operation({
      tag: "batches",
      auth: "business",
      summary:
        "Admit a lead (an enquiry of the institute): their account is found by the lead's e-mail, else an account that verified the lead's number, else made from the e-mail address; the lead is marked enrolled",
      body: LeadAdmitInput,
      responses: {
        200: ADMISSION,
        ...BATCH_DENIED,
        409: "The lead left no e-mail address and no account has verified their number; or an account was made with the address meanwhile",
      },
    }),
    async (c) => {
      const { user, centerId, batchId } = await atBatch(c);
      return c.json(await services.batches.admitLead(user, centerId, batchId, await jsonBody(c)));
    },
  );

  api.post(
    "/:id/students/:studentId/move",
    operation({
      tag: "batches",
      auth: "business",
      summary:
        "Move a student to another batch of the institute: kept here as history (moved, to which batch, when), admitted there or waiting when it is full; a seat freed here goes to the first waiting",
      body: MoveInput,
      responses: {
        200: "{moved, to, promoted: [...]}",
        ...BATCH_DENIED,
        409: "The student is already in that batch (or it is this one)",
      },
    }),
    async (c) => {
      const { user, centerId, batchId } = await atBatch(c);
      const studentId = c.req.param("studentId");
      return c.json(await services.batches.move(user, centerId, batchId, studentId, await jsonBody(c)));
    },
  );

  api.delete(
    "/:id/students/:studentId",
    operation({
      tag: "batches",
      auth: "business",
      summary: "A student leaves the batch (kept as history); the first on the waiting list takes the seat",
      responses: { 200: "{left, promoted: [...]}", ...BATCH_DENIED },
    }),
    async (c) => {
      const { centerId, batchId } = await atBatch(c);
      return c.json(await services.batches.leave(centerId, batchId, c.req.param("studentId")));
    },
  );

  api.put(
    "/:id/teachers",
    operation({
      tag: "batches",
      auth: "business",
      summary:
        "Name the batch's teachers anew, all of them (an empty list leaves none): people holding a teacher's, creator's or owner's role there",
      body: TeachersInput,
      responses: {
        200: "{batch}",
        400: "Not a list of ids, or a person who does not teach at the institute (named); nothing changed",
        ...BATCH_DENIED,
      },
    }),
    async (c) => {
      const { centerId, batchId } = await atBatch(c);
      return c.json({ batch: await services.batches.setTeachers(centerId, batchId, await jsonBody(c)) });
    },
  );

  api.put(
    "/:id/fee-plan",
    operation({
      tag: "batches",
      auth: "business",
      summary:
        "Choose the batch's fee plan (null: none): each student admitted from now on gets an account under it; students already in the batch are assigned it on the Fees page, with their discounts",
      body: FeePlanChoice,
      responses: {
        200: "{batch}",
        400: "Not one of the institute's fee plans; nothing changed",
        ...BATCH_DENIED,
      },
    }),
    async (c) => {
      const { centerId, batchId } = await atBatch(c);
      return c.json({ batch: await services.batches.setFeePlan(centerId, batchId, await jsonBody(c)) });
    },
  );

  api.post(
    "/:id/contents",
    operation({
      tag: "batches",
      auth: "business",
      summary:
        "Open an item, test or series of the batch's institute to the batch's admitted students, as if they had bought it (a series opens its tests); adding it again changes nothing",
      body: BatchContentInput,
      responses: {
        200: CONTENTS,
        400: "contentId is not an id",
        404: "No such batch (as above), or no such content in the batch's institute (another institute's, or deleted)",
        403: BATCH_DENIED[403],
      },
    }),
    async (c) => {
      const { user, centerId, batchId } = await atBatch(c);
      return c.json({ contents: await services.batches.addContent(user, centerId, batchId, await jsonBody(c)) });
    },
  );

  api.delete(
    "/:id/contents/:contentId",
    operation({
      tag: "batches",
      auth: "business",
      summary: "Close a content to the batch's students (those who bought it keep it)",
      responses: {
        200: CONTENTS,
        404: "No such batch (as above), or the content is not in this batch",
        403: BATCH_DENIED[403],
      },
    }),
    async (c) => {
      const { centerId, batchId } = await atBatch(c);
      return c.json({ contents: await services.batches.removeContent(centerId, batchId, c.req.param("contentId")) });
    },
  );

  return api;
}
