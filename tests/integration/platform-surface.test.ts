import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "../../server/db/schema/index.ts";
import { ADMIN_SIGN_IN_ELSEWHERE, STUDENTS_ONLY_SIGN_UP } from "../../server/services/accounts.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson, registerUser, uniqueEmail } from "../helpers/http.ts";
import { createOrPromoteAdmin } from "../../server/services/admins.ts";
import { createCenter } from "../helpers/centers.ts";
import { adminToken } from "../helpers/payments.ts";

/**
 * The platform's own surface stays on the platform: on an institute's domain the admin
 * endpoints, plan management and seminar bookings do not exist, admins cannot sign in, and
 * the API signs up students only, as the page does.
 */
let t: TestApp;
let admin: Record<string, string>;
let instituteHost: string;
let planId: string;
let centerId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = bearer(await adminToken(t));
  const owner = await registerUser(t, "business");
  const center = await createCenter(t, owner.user._id);
  instituteHost = center.customDomain!;
  centerId = center.id;
  planId = "00000000-0000-4000-8000-000000000000";
});
afterAll(() => t.close());

const platformOperations = () => [
  { method: "GET", path: "/api/admin/role-stats" },
  { method: "GET", path: "/api/admin/recent-purchases" },
  { method: "GET", path: "/api/admin/recent-template-selections" },
  { method: "GET", path: "/api/admin/notifications" },
  { method: "POST", path: "/api/admin/notifications/read", body: {} },
  { method: "POST", path: "/api/admin/notifications/clear", body: {} },
  { method: "GET", path: "/api/pricing/admin" },
  { method: "POST", path: "/api/pricing", body: {} },
  { method: "PUT", path: `/api/pricing/${planId}`, body: {} },
  { method: "DELETE", path: `/api/pricing/${planId}` },
  { method: "POST", path: "/api/book", body: {} },
  { method: "GET", path: "/api/bookings" },
  { method: "GET", path: "/api/bookings/export" },
  { method: "GET", path: "/api/centers" },
  { method: "POST", path: "/api/centers", body: {} },
  { method: "PUT", path: `/api/centers/${centerId}`, body: {} },
  { method: "POST", path: `/api/centers/${centerId}/extend`, body: {} },
  { method: "PUT", path: `/api/centers/${centerId}/status`, body: {} },
];

function call(op: { method: string; path: string; body?: unknown }, host: string) {
  return t.request(op.path, {
    method: op.method,
    host,
    headers: { ...admin, ...(op.body ? { "content-type": "application/json" } : {}) },
    body: op.body ? JSON.stringify(op.body) : undefined,
  });
}

describe("on an institute's domain", () => {
  it("the admin endpoints, plan management and seminar bookings answer 404, even to an admin", async () => {
    for (const op of platformOperations()) {
      const res = await call(op, instituteHost);
      expect(res.status, `${op.method} ${op.path}`).toBe(404);
      expect(await res.json()).toMatchObject({ success: false, error: "Not found" });
    }
  });

  it("the same operations exist on the platform", async () => {
    for (const op of platformOperations()) {
      const res = await call(op, "localhost");
      const answer = res.headers.get("content-type")?.includes("json") ? await res.json() : {};
      // A missing plan is a 404 of its own ("Plan not found"); the route itself is there.
      expect(res.status === 404 && answer.error === "Not found", `${op.method} ${op.path}`).toBe(false);
    }
  });

  it("the public plan list is still readable", async () => {
    expect((await t.request("/api/pricing", { host: instituteHost })).status).toBe(200);
  });

  it("refuses admin sign-in, with the same password that works on the platform", async () => {
    const email = uniqueEmail("admin");
    const password = "admin-password-long-enough";
    await createOrPromoteAdmin(t.database.db, { email, password, name: "Site Admin" });
    const refused = await postJson(t, "/api/auth/login", { email, password, role: "admin" }, { host: instituteHost });
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe(ADMIN_SIGN_IN_ELSEWHERE);
    const asStudent = await postJson(
      t,
      "/api/auth/login",
      { email, password, role: "student" },
      { host: instituteHost },
    );
    expect(asStudent.status).toBe(403);
    expect((await postJson(t, "/api/auth/login", { email, password, role: "admin" })).status).toBe(200);
  });

  it("signs up students only, and creates nothing otherwise", async () => {
    for (const role of ["creator", "business"]) {
      const email = uniqueEmail(role);
      const res = await postJson(
        t,
        "/api/auth/register",
        { name: "Not A Student", email, password: "tangerine-kettle-42", role },
        { host: instituteHost },
      );
      expect(res.status).toBe(403);
      expect((await res.json()).error).toBe(STUDENTS_ONLY_SIGN_UP);
      expect(await t.database.db.select().from(users).where(eq(users.email, email))).toHaveLength(0);
    }
    const student = await postJson(
      t,
      "/api/auth/register",
      { name: "New Student", email: uniqueEmail("student"), password: "tangerine-kettle-42", role: "student" },
      { host: instituteHost },
    );
    expect(student.status).toBe(201);
    // Without a role the institute's domain signs up a student (the platform's default is creator).
    const unnamed = await postJson(
      t,
      "/api/auth/register",
      { name: "Role Unsaid", email: uniqueEmail("student"), password: "tangerine-kettle-42" },
      { host: instituteHost },
    );
    expect(unnamed.status).toBe(201);
    expect((await unnamed.json()).user.role).toBe("student");
    const platformDefault = await postJson(t, "/api/auth/register", {
      name: "Role Unsaid",
      email: uniqueEmail("creator"),
      password: "tangerine-kettle-42",
    });
    expect((await platformDefault.json()).user.role).toBe("creator");
  });

  it("a platform-looking label never names an institute, even one given it before the label was reserved", async () => {
    const owner = await registerUser(t, "business");
    await createCenter(t, owner.user._id, { slug: "login", customDomain: "login-owner.test" });
    const slugHost = await t.request("/", { host: "login.localhost" });
    expect(slugHost.status).toBe(404);
    expect(await slugHost.text()).toContain("This site is not configured");
    expect((await t.request("/api/contents", { host: "login-owner.test" })).status).toBe(200);
  });
});
