import { spawn, type ChildProcess } from "node:child_process";
import { openDatabase } from "../../server/db/open.ts";
import { freePort } from "../../scripts/lib/free-port.ts";
import { runMigrations } from "../../server/db/migrate.ts";
import { hashPassword } from "../../server/auth/password.ts";
import {
  batchStudents,
  batchTeachers,
  batches,
  centers,
  classSessions,
  memberships,
  users,
} from "../../server/db/schema/index.ts";

/**
 * A classroom on an embedded database of its own, for the register's phone walk (e2e) and the
 * roll-call bench: an institute (`register-sunrise`), its teacher, a batch of `pupils` and three
 * classes that started five minutes ago (Physics, Mathematics, and Chemistry online). Everyone's
 * password is `password`; pupil i signs in as `pupil{i}.register@example.com`.
 */
export async function prepareRegisterWorld(
  dir: string,
  { teacherEmail, password, pupils }: { teacherEmail: string; password: string; pupils: readonly string[] },
): Promise<{ classroom: string; scanned: string; online: string }> {
  const database = await openDatabase({ dataDir: dir });
  try {
    await runMigrations(database);
    const { db } = database;
    const passwordHash = await hashPassword(password);
    const [teacher] = await db
      .insert(users)
      .values({ name: "Kavya Iyer", email: teacherEmail, passwordHash, role: "creator" })
      .returning();
    const pupilRows = await db
      .insert(users)
      .values(
        pupils.map((name, i) => ({
          name,
          email: `pupil${i}.register@example.com`,
          passwordHash,
          role: "student" as const,
        })),
      )
      .returning();
    const [center] = await db
      .insert(centers)
      .values({
        slug: "register-sunrise",
        instituteName: "Sunrise Academy",
        ownerId: null,
        planName: "3 Year Plan",
        billing: "yearly",
        status: "active",
        expiresAt: new Date(Date.now() + 30 * 86_400_000),
      })
      .returning();
    await db.insert(memberships).values([
      { centerId: center.id, userId: teacher.id, role: "teacher", status: "active", acceptedAt: new Date() },
      ...pupilRows.map((p) => ({
        centerId: center.id,
        userId: p.id,
        role: "student" as const,
        status: "active" as const,
        acceptedAt: new Date(),
      })),
    ]);
    const [batch] = await db
      .insert(batches)
      .values({ centerId: center.id, name: "JEE Morning", startsOn: "2026-04-01" })
      .returning();
    await db.insert(batchTeachers).values({ batchId: batch.id, centerId: center.id, userId: teacher.id });
    await db.insert(batchStudents).values(
      pupilRows.map((p) => ({
        batchId: batch.id,
        centerId: center.id,
        userId: p.id,
        status: "admitted" as const,
        admittedAt: new Date(),
      })),
    );
    const startsAt = new Date(Date.now() - 5 * 60_000);
    const indiaDay = new Date(startsAt.getTime() + 330 * 60_000).toISOString().slice(0, 10);
    const session = async (fields: { subject: string; room?: string; online?: boolean; meetingUrl?: string }) => {
      const [row] = await db
        .insert(classSessions)
        .values({
          centerId: center.id,
          batchId: batch.id,
          on: indiaDay,
          startsAt,
          endsAt: new Date(startsAt.getTime() + 2 * 60 * 60_000),
          teacherId: teacher.id,
          ...fields,
        })
        .returning();
      return row.id;
    };
    return {
      classroom: await session({ subject: "Physics", room: "Room 4" }),
      scanned: await session({ subject: "Mathematics", room: "Room 5" }),
      online: await session({
        subject: "Chemistry",
        online: true,
        meetingUrl: "https://meet.example.com/abc-defg-hij",
      }),
    };
  } finally {
    await database.close();
  }
}

/** The production build (`npm run build` first) on `dir`'s embedded database, on a free port; its origin and a way to stop it. */
export async function startBuiltServer(dir: string): Promise<{ origin: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const server: ChildProcess = spawn(process.execPath, ["build/server/index.js"], {
    stdio: "ignore",
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dir,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      PLATFORM_HOSTS: "localhost,127.0.0.1",
      PLATFORM_DOMAIN: "localhost",
      TRUST_PROXY: "1",
      SEED_DEMO: "0",
      MESSAGES_SANDBOX: "1",
      RAZORPAY_SANDBOX: "1",
    },
  });
  const deadline = Date.now() + 60_000;
  while ((await fetch(`${origin}/healthz`).catch(() => null))?.status !== 200) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    if (Date.now() > deadline) throw new Error("the server did not answer /healthz within 60 s");
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    origin,
    stop: async () => {
      if (server.exitCode !== null) return;
      const exited = new Promise((done) => server.once("exit", done));
      server.kill("SIGTERM");
      await exited;
    },
  };
}
