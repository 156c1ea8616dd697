import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import {
  attempts,
  centers,
  contents,
  enrollments,
  memberships,
  mockTests,
  users,
} from "../../server/db/schema/index.ts";
import { generateToken, hashToken } from "../../server/auth/tokens.ts";
import type { Database } from "../../server/db/types.ts";
import { openDatabaseAt } from "../helpers/older-database.ts";

/**
 * Migrations 0029 and 0030 (issue 40) on a database the product made before memberships: it is
 * migrated up to 0028, given owners, a team (accepted, pending and removed rows, and the 0010
 * upgrade's members without a link) and students made each way, then upgraded the way a
 * deployment is. Every row is accounted for.
 */

let older: Awaited<ReturnType<typeof openDatabaseAt>>;
let database: Database;
let insertRow: (typeof older)["insertRow"];

beforeAll(async () => {
  older = await openDatabaseAt(28);
  ({ database, insertRow } = older);
}, 300_000);
afterAll(() => older?.drop());

const DAY = 24 * 60 * 60 * 1000;

async function user(name: string, role: "student" | "creator" | "business", signupCenterId: string | null = null) {
  const [row] = await database.db
    .insert(users)
    .values({
      name,
      email: `${name.toLowerCase().replace(/ /g, ".")}@example.com`,
      passwordHash: "x",
      role,
      signupCenterId,
    })
    .returning();
  return row;
}

interface TeamRow {
  id: string;
  center_id: string;
  email: string;
  member_id: string | null;
  status: "pending" | "accepted" | "removed";
  token_hash: string | null;
  token_expires_at: Date | null;
}

describe("migrating people to memberships (0029, 0030)", () => {
  it(
    "carries every owner, team row and student over, and the links already sent still open",
    { timeout: 120_000 },
    async () => {
      const db = database.db;
      const anita = await user("Anita Owner", "business");
      const ravi = await user("Ravi Owner", "business");
      const sunrise = await insertRow("centers", {
        slug: "sunrise",
        instituteName: "Sunrise Academy",
        ownerId: anita.id,
      });
      const vidya = await insertRow("centers", { slug: "vidya", instituteName: "Vidya Classes", ownerId: ravi.id });
      const orphan = await insertRow("centers", { slug: "orphan", instituteName: "No Owner Yet" });

      // The team, as the product kept it: accepted, pending (a link out there), removed, and a member from the 0010 upgrade.
      const rahul = await user("Rahul Creator", "creator");
      const meera = await user("Meera Creator", "creator");
      const token = generateToken();
      const expires = new Date(Date.now() + 3 * DAY);
      const team = [
        {
          center: sunrise.id,
          email: rahul.email,
          member: rahul.id,
          status: "accepted",
          hash: hashToken(generateToken()),
        },
        { center: vidya.id, email: rahul.email, member: rahul.id, status: "accepted", hash: null },
        { center: sunrise.id, email: "invited@example.com", member: null, status: "pending", hash: hashToken(token) },
        { center: vidya.id, email: meera.email, member: meera.id, status: "removed", hash: hashToken(generateToken()) },
      ];
      for (const row of team) {
        await db.execute(sql`insert into team_members (center_id, email, invited_by_id, member_id, status, token_hash, token_expires_at, accepted_at, removed_at)
        values (${row.center}, ${row.email}, ${anita.id}, ${row.member}, ${row.status}, ${row.hash}, ${expires.toISOString()},
          ${row.status === "pending" ? null : new Date(Date.now() - 5 * DAY).toISOString()}, ${row.status === "removed" ? new Date().toISOString() : null})`);
      }
      const teamRows = ((await db.execute(sql`select * from team_members`)) as unknown as { rows: TeamRow[] }).rows;
      expect(teamRows).toHaveLength(4);

      // Students, each way: signed up on a site; bought there; enrolled in an institute's content; sat its test.
      const signedUp = await user("Signed Up", "student", sunrise.id);
      const buyer = await user("Paid Buyer", "student");
      const enrolled = await user("Free Enrolled", "student");
      const sitter = await user("Test Sitter", "student");
      const platformOnly = await user("Platform Student", "student");
      const twice = await user("Signed And Bought", "student", vidya.id);
      const [pdf] = await db
        .insert(contents)
        .values({ creatorId: rahul.id, centerId: sunrise.id, type: "pdf", title: "Notes", price: 4900 })
        .returning();
      const [own] = await db
        .insert(contents)
        .values({ creatorId: rahul.id, type: "pdf", title: "Own notes" })
        .returning();
      const paidAt = new Date().toISOString();
      const order = { contentId: pdf.id, creatorId: rahul.id, centerId: vidya.id, amount: 4900 };
      await insertRow("content_orders", {
        ...order,
        studentId: buyer.id,
        gatewayOrderId: "o1",
        status: "paid",
        paidAt,
      });
      await insertRow("content_orders", {
        ...order,
        studentId: twice.id,
        gatewayOrderId: "o2",
        status: "paid",
        paidAt,
      });
      // Never paid: no student of anything.
      await insertRow("content_orders", {
        ...order,
        studentId: platformOnly.id,
        gatewayOrderId: "o3",
        status: "created",
      });
      await db.insert(enrollments).values([
        { studentId: enrolled.id, contentId: pdf.id },
        { studentId: platformOnly.id, contentId: own.id },
      ]);
      const [testContent] = await db
        .insert(contents)
        .values({ creatorId: rahul.id, centerId: vidya.id, type: "test", title: "Mock 1" })
        .returning();
      await db.insert(mockTests).values({
        contentId: testContent.id,
        centerId: vidya.id,
        pattern: "custom",
        durationMinutes: 30,
        sections: [{ name: "All", marking: { single: { correct: 4, incorrect: -1, unanswered: 0 } } }],
        status: "published",
      });
      await db.insert(attempts).values({
        testId: testContent.id,
        studentId: sitter.id,
        centerId: vidya.id,
        deadline: new Date(Date.now() + DAY),
      });

      await older.upgrade();

      const all = await db.select().from(memberships);
      // Owners: one per institute with an owner.
      expect(
        all
          .filter((m) => m.role === "owner")
          .map((m) => [m.centerId, m.userId, m.status])
          .sort(),
      ).toEqual(
        [
          [sunrise.id, anita.id, "active"],
          [vidya.id, ravi.id, "active"],
        ].sort(),
      );
      expect(all.some((m) => m.centerId === orphan.id)).toBe(false);
      // Every team row, same id, its status in the new words, its link intact.
      const status = { pending: "invited", accepted: "active", removed: "removed" } as const;
      const creators = all.filter((m) => m.role === "creator");
      expect(creators).toHaveLength(teamRows.length);
      for (const row of teamRows) {
        const moved = creators.find((m) => m.id === row.id);
        expect(moved).toMatchObject({
          centerId: row.center_id,
          email: row.email,
          userId: row.member_id,
          status: status[row.status],
          tokenHash: row.token_hash,
          invitedById: anita.id,
        });
        expect(moved?.tokenExpiresAt?.getTime()).toBe(new Date(row.token_expires_at!).getTime());
      }
      // Students: one row per student and institute, whichever ways they came.
      const students = all
        .filter((m) => m.role === "student")
        .map((m) => `${m.userId}@${m.centerId}:${m.status}`)
        .sort();
      expect(students).toEqual(
        [
          `${signedUp.id}@${sunrise.id}:active`,
          `${buyer.id}@${vidya.id}:active`,
          `${enrolled.id}@${sunrise.id}:active`,
          `${sitter.id}@${vidya.id}:active`,
          `${twice.id}@${vidya.id}:active`,
        ].sort(),
      );
      expect(all).toHaveLength(2 + 4 + 5);
      // The old table is gone: one place for people's roles.
      const left = (await db.execute(sql`select to_regclass('public.team_members') as t`)) as unknown as {
        rows: { t: string | null }[];
      };
      expect(left.rows[0].t).toBeNull();
      // The pending invitation's link still finds it.
      const [byLink] = await db
        .select()
        .from(memberships)
        .where(eq(memberships.tokenHash, hashToken(token)));
      expect(byLink).toMatchObject({ email: "invited@example.com", status: "invited", role: "creator" });
    },
  );

  it("keeps making owners and students from then on, whichever code writes the rows", async () => {
    const db = database.db;
    const owner = await user("Later Owner", "business");
    const [later] = await db
      .insert(centers)
      .values({ slug: "later", instituteName: "Later Institute", ownerId: owner.id })
      .returning();
    const newcomer = await user("Site Newcomer", "student", later.id);
    const [item] = await db
      .insert(contents)
      .values({ creatorId: owner.id, centerId: later.id, type: "pdf", title: "Free notes" })
      .returning();
    const enrolled = await user("Later Enrolled", "student");
    await db.insert(enrollments).values({ studentId: enrolled.id, contentId: item.id });
    // Enrolling again elsewhere in the same institute adds no second row.
    const [second] = await db
      .insert(contents)
      .values({ creatorId: owner.id, centerId: later.id, type: "pdf", title: "More notes" })
      .returning();
    await db.insert(enrollments).values({ studentId: newcomer.id, contentId: second.id });
    const rows = await db
      .select({ userId: memberships.userId, role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.centerId, later.id), eq(memberships.status, "active")));
    expect(rows.map((r) => `${r.userId}:${r.role}`).sort()).toEqual(
      [`${owner.id}:owner`, `${newcomer.id}:student`, `${enrolled.id}:student`].sort(),
    );
  });
});
