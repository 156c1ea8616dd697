import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "../../server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { postJson, registerUser } from "../helpers/http.ts";

/**
 * A failed query is logged by its SQL state and statement, never with the values it was bound
 * with: here a duplicate e-mail and a real argon2 hash, forced through the API's error path.
 */
const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { logLines: lines });
});
afterAll(() => t.close());

describe("logs of failed queries", () => {
  it("name the error, the SQL state and the statement, and no bound value", async () => {
    const person = await registerUser(t, "student");
    const email = person.user.email as string;
    const [{ passwordHash }] = await t.database.db
      .select({ passwordHash: users.passwordHash })
      .from(users)
      .where(eq(users.email, email));
    expect(passwordHash).toMatch(/^\$argon2id\$/);

    // Registration made to insert the same person again: a unique violation nobody expected.
    t.services.accounts.register = async () => {
      await t.database.db.insert(users).values({ name: "Second Person", email, passwordHash, role: "student" });
      throw new Error("not reached");
    };
    lines.length = 0;
    const res = await postJson(t, "/api/auth/register", {
      name: "Second Person",
      email,
      password: "a-long-unusual-password",
      role: "student",
    });
    expect(res.status).toBe(500);
    expect((await res.json()).error).toBe("Something went wrong. Please try again.");

    const logged = lines.join("\n");
    const failure = lines.map((line) => JSON.parse(line)).find((record) => record.msg === "unhandled error");
    expect(failure?.error).toMatchObject({
      name: "QueryError",
      sqlState: "23505",
      constraint: expect.stringContaining("email"),
    });
    expect(failure.error.statement).toMatch(/^insert into "users"/);
    expect(failure.error.statement).toContain("$1");
    for (const secret of [email, passwordHash, passwordHash.split("$").at(-1)!, "Second Person"])
      expect(logged).not.toContain(secret);
  });
});
