import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { batchStudents, batches, enquiries, memberships, users } from "../../server/db/schema/index.ts";
import { runInTenantScope } from "../../server/db/tenant-scope.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { register } from "../helpers/learning.ts";
import { notAllowed } from "../../server/auth/permissions.ts";
import type { MemberRole } from "../../common/memberships.ts";
import {
  BATCH_CAPACITY,
  BATCH_ENDS_BEFORE_START,
  BATCH_NOT_FOUND,
  NOT_A_STUDENT,
  NOT_A_TEACHER,
  leadUnreachable,
} from "../../common/validation/batches.ts";

/**
 * Batches (issue 41 §1, decision 0042) through the API: making them (and the bad input that
 * stores nothing), admitting up to the capacity and then onto the waiting list (a burst of
 * simultaneous admissions seats exactly the capacity), the first waiting admitted when a seat
 * frees, a move kept as history, a CSV all or nothing with its bad rows named, a lead admitted,
 * and who may do it: owners and staff, not teachers or students; another institute's batch is not found.
 */

type Account = Awaited<ReturnType<typeof register>>;
let t: TestApp;
let owner: Account;
let staffer: Account;
let teacher: Account;
let student: Account;
let otherOwner: Account;
let sunrise: Awaited<ReturnType<typeof createCenter>>;
let vidya: Awaited<ReturnType<typeof createCenter>>;
const pupils: Account[] = [];

const grant = (centerId: string, userId: string, role: MemberRole) =>
  t.database.db
    .insert(memberships)
    .values({ centerId, userId, role, status: "active", acceptedAt: new Date() })
    .onConflictDoNothing();

beforeAll(async () => {
  t = await createTestApp();
  owner = await register(t, "business", { name: "Anita Sharma" });
  otherOwner = await register(t, "business", { name: "Ravi Rao" });
  staffer = await register(t, "business", { name: "Front Desk Farah" });
  teacher = await register(t, "creator", { name: "Kavya Iyer" });
  student = await register(t, "student", { name: "Priya Das" });
  sunrise = await createCenter(t, owner.user._id, { instituteName: "Sunrise Academy", slug: "bat-sunrise" });
  vidya = await createCenter(t, otherOwner.user._id, { instituteName: "Vidya Classes", slug: "bat-vidya" });
  await grant(sunrise.id, staffer.user._id, "staff");
  await grant(sunrise.id, teacher.user._id, "teacher");
  await grant(sunrise.id, student.user._id, "student");
  for (let i = 0; i < 8; i++) {
    const pupil = await register(t, "student", { name: `Pupil ${i + 1}` });
    await grant(sunrise.id, pupil.user._id, "student");
    pupils.push(pupil);
  }
});
afterAll(() => t.close());

const as = (who: Account) => bearer(who.access_token);
const make = (who: Account, body: Record<string, unknown>) =>
  postJson(t, "/api/batches", { centerId: sunrise.id, ...body }, { headers: as(who) });
const admit = (who: Account, batchId: string, body: unknown) =>
  postJson(t, `/api/batches/${batchId}/students`, body, { headers: as(who) });
const detail = async (who: Account, batchId: string) => {
  const res = await t.request(`/api/batches/${batchId}`, { headers: as(who) });
  return { status: res.status, body: await res.json() };
};
const batchCount = async () => (await t.database.db.select().from(batches)).length;
const newBatch = async (body: Record<string, unknown>) => {
  const res = await make(owner, { startsOn: "2027-04-01", ...body });
  expect(res.status).toBe(201);
  return (await res.json()).batch as { _id: string };
};

describe("making batches", () => {
  it("makes a batch with its course, dates, capacity, medium, centre and teachers", async () => {
    const res = await make(owner, {
      name: "JEE 2027 Morning",
      course: "JEE Main + Advanced, two-year",
      startsOn: "2027-04-01",
      endsOn: "2029-03-31",
      capacity: 60,
      medium: "Hindi",
      centre: "Salt Lake",
      teacherIds: [teacher.user._id, owner.user._id],
    });
    expect(res.status).toBe(201);
    const { batch } = await res.json();
    expect(batch).toMatchObject({
      centerId: sunrise.id,
      name: "JEE 2027 Morning",
      course: "JEE Main + Advanced, two-year",
      startsOn: "2027-04-01",
      endsOn: "2029-03-31",
      capacity: 60,
      medium: "Hindi",
      centre: "Salt Lake",
      admitted: 0,
      waitlisted: 0,
    });
    expect(batch.teachers.map((x: { name: string }) => x.name)).toEqual(["Anita Sharma", "Kavya Iyer"]);
    const list = await (await t.request(`/api/batches?centerId=${sunrise.id}`, { headers: as(owner) })).json();
    expect(list.batches.map((b: { _id: string }) => b._id)).toContain(batch._id);
  });

  it("refuses an end before the start, a capacity of 0 and a teacher who is not the institute's, storing nothing", async () => {
    const before = await batchCount();
    const early = await make(owner, { name: "Backwards", startsOn: "2027-04-01", endsOn: "2027-03-01" });
    expect(early.status).toBe(400);
    expect((await early.json()).error).toBe(BATCH_ENDS_BEFORE_START);
    const empty = await make(owner, { name: "No seats", startsOn: "2027-04-01", capacity: 0 });
    expect(empty.status).toBe(400);
    expect((await empty.json()).error).toBe(BATCH_CAPACITY);
    const stranger = await make(owner, {
      name: "Taught by a student",
      startsOn: "2027-04-01",
      teacherIds: [student.user._id],
    });
    expect(stranger.status).toBe(400);
    expect((await stranger.json()).error).toBe(NOT_A_TEACHER(`The teacher ${student.user._id}`));
    const nameless = await make(owner, { startsOn: "2027-04-01" });
    expect(nameless.status).toBe(400);
    expect((await nameless.json()).error).toBe("Batch name is required");
    expect(await batchCount()).toBe(before);
  });
});

describe("who may run batches", () => {
  it("lets staff make batches and admit; refuses a teacher and a student in the policy's words", async () => {
    const res = await make(staffer, { name: "NEET Evening", startsOn: "2027-05-01" });
    expect(res.status).toBe(201);
    const { batch } = await res.json();
    expect((await admit(staffer, batch._id, { studentIds: [student.user._id] })).status).toBe(200);
    const before = await batchCount();
    for (const who of [teacher, student]) {
      const refused = await make(who, { name: "Not mine to make", startsOn: "2027-05-01" });
      expect(refused.status).toBe(403);
      expect((await refused.json()).error).toBe(notAllowed("batches.manage"));
      const look = await detail(who, batch._id);
      expect(look.status).toBe(403);
      expect(look.body.error).toBe(notAllowed("batches.manage"));
    }
    expect(await batchCount()).toBe(before);
  });

  it("does not find another institute's batch, nor let its owner admit into it or list it", async () => {
    const batch = await newBatch({ name: "Private" });
    // Row-level security (on PostgreSQL, as tests/integration/row-level-security.test.ts): within the
    // other institute's scope the batch is not there. PGlite runs the tests as the tables' owner.
    if (process.env.TEST_DATABASE_URL) {
      const seen = await runInTenantScope(vidya.id, async () =>
        t.database.db.select().from(batches).where(eq(batches.id, batch._id)),
      );
      expect(seen).toEqual([]);
    }
    const look = await detail(otherOwner, batch._id);
    expect(look.status).toBe(404);
    expect(look.body.error).toBe(BATCH_NOT_FOUND);
    const res = await admit(otherOwner, batch._id, { studentIds: [student.user._id] });
    expect(res.status).toBe(404);
    const list = await t.request(`/api/batches?centerId=${sunrise.id}`, { headers: as(otherOwner) });
    expect(list.status).toBe(403);
    const own = await (await t.request(`/api/batches?centerId=${vidya.id}`, { headers: as(otherOwner) })).json();
    expect(own.batches).toEqual([]);
  });
});

describe("admitting with a capacity and a waiting list", () => {
  it("admits up to the capacity, puts the rest on the waiting list in order, and refuses a non-student, admitting nobody", async () => {
    const batch = await newBatch({ name: "Small room", capacity: 2 });
    const refused = await admit(owner, batch._id, { studentIds: [pupils[0].user._id, otherOwner.user._id] });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toBe(NOT_A_STUDENT(`The account ${otherOwner.user._id}`));
    expect(await t.database.db.select().from(batchStudents).where(eq(batchStudents.batchId, batch._id))).toEqual([]);

    const res = await admit(owner, batch._id, {
      studentIds: [pupils[0].user._id, pupils[1].user._id, pupils[2].user._id, pupils[3].user._id],
    });
    expect(res.status).toBe(200);
    const done = await res.json();
    expect(done.admitted.map((s: { name: string }) => s.name)).toEqual(["Pupil 1", "Pupil 2"]);
    expect(done.waitlisted.map((s: { name: string; position: number }) => [s.name, s.position])).toEqual([
      ["Pupil 3", 1],
      ["Pupil 4", 2],
    ]);
    const again = await (await admit(owner, batch._id, { studentIds: [pupils[0].user._id] })).json();
    expect(again).toMatchObject({ admitted: [], waitlisted: [] });
    expect(again.already.map((s: { name: string }) => s.name)).toEqual(["Pupil 1"]);

    // One leaves: the first waiting takes the seat, the next stays waiting.
    const left = await t.request(`/api/batches/${batch._id}/students/${pupils[1].user._id}`, {
      method: "DELETE",
      headers: as(owner),
    });
    expect(left.status).toBe(200);
    expect((await left.json()).promoted.map((s: { name: string }) => s.name)).toEqual(["Pupil 3"]);
    const now = (await detail(owner, batch._id)).body;
    expect(now.students.map((s: { name: string }) => s.name)).toEqual(["Pupil 1", "Pupil 3"]);
    expect(now.waitingList.map((s: { name: string }) => s.name)).toEqual(["Pupil 4"]);
    expect(now.history.map((s: { name: string; status: string }) => [s.name, s.status])).toEqual([["Pupil 2", "left"]]);
    expect(now.batch).toMatchObject({ admitted: 2, waitlisted: 1 });
  });

  it("seats exactly the capacity when admissions arrive at once", async () => {
    const batch = await newBatch({ name: "Rush", capacity: 3 });
    const answers = await Promise.all(pupils.map((p) => admit(owner, batch._id, { studentIds: [p.user._id] })));
    expect(answers.map((r) => r.status)).toEqual(pupils.map(() => 200));
    const rows = await t.database.db.select().from(batchStudents).where(eq(batchStudents.batchId, batch._id));
    expect(rows.filter((r) => r.status === "admitted")).toHaveLength(3);
    const waiting = rows.filter((r) => r.status === "waitlisted").map((r) => r.position);
    expect(waiting.sort()).toEqual([1, 2, 3, 4, 5]);
  });
});

describe("moving a student", () => {
  it("keeps the student's history in the batch left, seats them in the other and gives the freed seat to the first waiting", async () => {
    const from = await newBatch({ name: "Move from", capacity: 1 });
    const to = await newBatch({ name: "Move to" });
    await admit(owner, from._id, { studentIds: [pupils[4].user._id, pupils[5].user._id] });
    const res = await postJson(
      t,
      `/api/batches/${from._id}/students/${pupils[4].user._id}/move`,
      { toBatchId: to._id },
      { headers: as(owner) },
    );
    expect(res.status).toBe(200);
    const moved = await res.json();
    expect(moved.moved).toMatchObject({ name: "Pupil 5", status: "moved", movedTo: to._id });
    expect(moved.to).toMatchObject({ name: "Pupil 5", status: "admitted" });
    expect(moved.promoted.map((s: { name: string }) => s.name)).toEqual(["Pupil 6"]);
    const here = (await detail(owner, from._id)).body;
    expect(here.students.map((s: { name: string }) => s.name)).toEqual(["Pupil 6"]);
    expect(here.history).toEqual([expect.objectContaining({ name: "Pupil 5", status: "moved", movedTo: to._id })]);
    expect(here.history[0].leftAt).not.toBeNull();
    const there = (await detail(owner, to._id)).body;
    expect(there.students.map((s: { name: string }) => s.name)).toEqual(["Pupil 5"]);
    const twice = await postJson(
      t,
      `/api/batches/${from._id}/students/${pupils[4].user._id}/move`,
      { toBatchId: to._id },
      { headers: as(owner) },
    );
    expect(twice.status).toBe(404);
  });
});

describe("admitting by CSV", () => {
  it("names every bad row and admits nobody when any row is bad", async () => {
    const batch = await newBatch({ name: "CSV batch" });
    const usersBefore = (await t.database.db.select().from(users)).length;
    const csv = [
      "name,email,phone",
      "Asha Kumar,asha.csv@example.com,",
      ",nameless@example.com,",
      "Bad Mail,not-an-address,",
      "Nobody Known,,+91 98300 99999",
      "Asha Again,ASHA.csv@example.com,",
    ].join("\n");
    const res = await admit(owner, batch._id, { csv });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.rows).toEqual([
      { row: 3, message: "the name is missing" },
      { row: 4, message: '"not-an-address" is not a valid e-mail address' },
      { row: 6, message: "the same person as row 2" },
    ]);
    expect(body.error).toBe(
      '3 rows of the CSV cannot be admitted, so nobody was: row 3: the name is missing; row 4: "not-an-address" is not a valid e-mail address; row 6: the same person as row 2.',
    );
    // Rows good in themselves that name nobody reachable are named too, and still nothing is made.
    const unknown = await admit(owner, batch._id, {
      csv: "name,email,phone\nAsha Kumar,asha.csv@example.com,\nNobody Known,,+91 98300 99999\n",
    });
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).rows).toEqual([
      { row: 3, message: "no e-mail address, and no account has verified the number +919830099999" },
    ]);
    expect((await t.database.db.select().from(users)).length).toBe(usersBefore);
    expect(await t.database.db.select().from(batchStudents).where(eq(batchStudents.batchId, batch._id))).toEqual([]);
  });

  it("admits a good file, sent as JSON or as text/csv, making the accounts and the institute's student roles", async () => {
    const batch = await newBatch({ name: "CSV good", capacity: 2 });
    const res = await t.request(`/api/batches/${batch._id}/students`, {
      method: "POST",
      headers: { ...as(owner), "content-type": "text/csv" },
      body: `name,email,phone\nAsha Kumar,asha.good@example.com,\n"Das, Priya",${student.email},\nNew Third,third.good@example.com,98300 12345\n`,
    });
    expect(res.status).toBe(200);
    const done = await res.json();
    expect(done.admitted.map((s: { email: string }) => s.email)).toEqual(["asha.good@example.com", student.email]);
    expect(done.waitlisted.map((s: { email: string }) => s.email)).toEqual(["third.good@example.com"]);
    const [asha] = await t.database.db.select().from(users).where(eq(users.email, "asha.good@example.com"));
    expect(asha).toMatchObject({ name: "Asha Kumar", role: "student" });
    const roles = await t.database.db
      .select()
      .from(memberships)
      .where(
        and(eq(memberships.userId, asha.id), eq(memberships.centerId, sunrise.id), eq(memberships.status, "active")),
      );
    expect(roles.map((r) => r.role)).toEqual(["student"]);
  });

  it("refuses a file over its limits", async () => {
    const batch = await newBatch({ name: "CSV large" });
    const rows = Array.from({ length: 1001 }, (_, i) => `P${i},p${i}@example.com,`).join("\n");
    const res = await admit(owner, batch._id, { csv: `name,email,phone\n${rows}` });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe("The CSV has too many rows (1000 at most). Split it into smaller files.");
  });
});

describe("admitting a lead", () => {
  it("admits a lead in one request, making their account from the lead's e-mail, and marks the lead enrolled", async () => {
    const batch = await newBatch({ name: "From leads" });
    const [lead] = await t.database.db
      .insert(enquiries)
      .values({ centerId: sunrise.id, name: "Lead Lata", phone: "9830011111", email: "lata.lead@example.com" })
      .returning();
    const res = await postJson(t, `/api/batches/${batch._id}/leads`, { enquiryId: lead.id }, { headers: as(owner) });
    expect(res.status).toBe(200);
    const done = await res.json();
    expect(done.admitted).toEqual([expect.objectContaining({ name: "Lead Lata", email: "lata.lead@example.com" })]);
    const [after] = await t.database.db.select().from(enquiries).where(eq(enquiries.id, lead.id));
    expect(after.status).toBe("enrolled");
  });

  it("refuses a lead with no e-mail address whose number no account has verified", async () => {
    const batch = await newBatch({ name: "Phone leads" });
    const [lead] = await t.database.db
      .insert(enquiries)
      .values({ centerId: sunrise.id, name: "Phone Only", phone: "9830022222", email: "" })
      .returning();
    const res = await postJson(t, `/api/batches/${batch._id}/leads`, { enquiryId: lead.id }, { headers: as(owner) });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(leadUnreachable("9830022222"));
    // Another institute's lead is not found from this one's batch.
    const [theirs] = await t.database.db
      .insert(enquiries)
      .values({ centerId: vidya.id, name: "Their Lead", phone: "9830033333", email: "their.lead@example.com" })
      .returning();
    const other = await postJson(
      t,
      `/api/batches/${batch._id}/leads`,
      { enquiryId: theirs.id },
      { headers: as(owner) },
    );
    expect(other.status).toBe(404);
  });
});
