import { and, eq, inArray, isNull } from "drizzle-orm";
import {
  centers,
  orders,
  contents,
  enrollments,
  notices,
  pricingPlans,
  memberships,
  trials,
  users,
} from "../db/schema/index.ts";
import type { Db, Tx } from "../db/types.ts";
import type { Storage } from "../storage/types.ts";
import { demoVideo, makeDemoPdf } from "./demo-files.ts";
import { seedDemoTests } from "./demo-tests.ts";
import { seedDemoAttendance } from "./demo-attendance.ts";
import { hashPassword } from "../auth/password.ts";
import { getMeta, setMeta } from "../services/meta.ts";
import {
  DEMO_ACCOUNTS,
  DEMO_CENTERS,
  DEMO_PENDING_INVITE,
  DEMO_TEACHER_INVITE,
  DEMO_TRIAL_CENTER,
  FALLBACK_PLANS,
} from "./demo-data.ts";
import { TRIAL_DAYS } from "#common/trial.ts";
import { generateToken, hashToken } from "../auth/tokens.ts";
import { INVITE_TTL_DAYS } from "#common/validation/team.ts";
import { parseClassTime } from "#common/validation/content.ts";
import { thePlan } from "#common/format.ts";
import { seminarToday } from "#common/validation/seminar.ts";
import { SANDBOX_SECRETS_KEY, SecretBox } from "../payments/secrets.ts";
import { connectSandboxAccount } from "../payments/merchant-accounts.ts";
import { namedSandboxAccount } from "../payments/sandbox/accounts.ts";

const SEEDED_MARKER = "demo_seeded_at";
const DAY = 24 * 60 * 60 * 1000;

/**
 * `days` from now at `time` India time, read as a creator's class time is: demo classes start
 * when a class would, not at the minute the seed ran. (seminarToday gives the date in India.)
 */
const classTime = (now: number, days: number, time: string) =>
  parseClassTime(`${seminarToday(new Date(now + days * DAY))}T${time}`)!;

/** Seeds the demo once per database; the marker survives even if some rows are later deleted. */
export async function seedDemoOnce(db: Db, storage?: Storage, box?: SecretBox | null): Promise<boolean> {
  if (await getMeta(db, SEEDED_MARKER)) return false;
  await seedDemo(db, storage, box);
  return true;
}

export async function isDemoSeeded(db: Db): Promise<boolean> {
  return (await getMeta(db, SEEDED_MARKER)) !== undefined;
}

interface StoredDemoFile {
  key: string;
  size: number;
}

/** The demo creator's real files, stored like any upload (through the storage layer, under server-made keys). */
async function storeDemoFiles(storage: Storage): Promise<{ pdf: StoredDemoFile; video: StoredDemoFile }> {
  const put = async (bytes: Uint8Array, ext: string, contentType: string) => {
    const key = `content/${crypto.randomUUID()}.${ext}`;
    const { size } = await storage.put(key, new Blob([bytes as Uint8Array<ArrayBuffer>]).stream(), {
      maxBytes: bytes.byteLength,
      contentType,
    });
    return { key, size };
  };
  const pdf = await put(await makeDemoPdf(), "pdf", "application/pdf");
  try {
    return { pdf, video: await put(await demoVideo(), "mp4", "video/mp4") };
  } catch (error) {
    await storage.delete(pdf.key).catch(() => {});
    throw error;
  }
}

/**
 * Idempotent: rows that already exist (by email, slug or plan name) are left as they are. With
 * `storage`, the demo creator also gets a real PDF and video, and the demo student has bought them.
 */
/**
 * `box` seals the demo institutes' sandbox payment accounts (decision 0040): by default the
 * sandbox's documented key; null leaves them unconnected (payments on real Razorpay, or off).
 */
export async function seedDemo(
  db: Db,
  storage?: Storage,
  box: SecretBox | null = new SecretBox(SANDBOX_SECRETS_KEY, true),
): Promise<void> {
  const hashes = await Promise.all(DEMO_ACCOUNTS.map((a) => hashPassword(a.password)));
  const files = storage ? await storeDemoFiles(storage) : null;
  let filesUsed = false;
  try {
    filesUsed = await seedRows(db, hashes, files, box);
  } finally {
    if (files && !filesUsed)
      await Promise.allSettled([storage!.delete(files.pdf.key), storage!.delete(files.video.key)]);
  }
}

/** Returns whether the rows now refer to `files` (only once the transaction has committed). */
async function seedRows(
  db: Db,
  hashes: string[],
  files: { pdf: StoredDemoFile; video: StoredDemoFile } | null,
  box: SecretBox | null,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    let filesUsed = false;
    const existingPlans = await tx
      .select({ name: pricingPlans.name })
      .from(pricingPlans)
      .where(
        inArray(
          pricingPlans.name,
          FALLBACK_PLANS.map((p) => p.name),
        ),
      );
    const missingPlans = FALLBACK_PLANS.filter((p) => !existingPlans.some((e) => e.name === p.name));
    if (missingPlans.length) {
      await tx.insert(pricingPlans).values(
        missingPlans.map((p) => ({
          name: p.name,
          description: p.description,
          monthlyPrice: p.monthly * 100,
          quarterlyPrice: p.quarterly * 100,
          yearlyPrice: p.yearly * 100,
          isPopular: p.isPopular,
          features: p.features,
          sortOrder: FALLBACK_PLANS.indexOf(p),
        })),
      );
    }

    await tx
      .insert(users)
      .values(DEMO_ACCOUNTS.map((a, i) => ({ name: a.name, email: a.email, role: a.role, passwordHash: hashes[i] })))
      .onConflictDoNothing();
    const accounts = await tx
      .select({ id: users.id, role: users.role, email: users.email })
      .from(users)
      .where(
        inArray(
          users.email,
          DEMO_ACCOUNTS.map((a) => a.email),
        ),
      );
    const owner = accounts.find((a) => a.email === "business@example.com");
    const trialOwner = accounts.find((a) => a.email === DEMO_TRIAL_CENTER.ownerEmail);
    const creator = accounts.find((a) => a.role === "creator");
    const student = accounts.find((a) => a.role === "student");

    const [plan] = await tx.select().from(pricingPlans).where(eq(pricingPlans.name, "3 Year Plan")).limit(1);
    const now = Date.now();
    await tx
      .insert(centers)
      .values(
        DEMO_CENTERS.map((c) => ({
          ...c,
          // No port: the Center List opens a .localhost site on the port the demo runs on.
          website: `http://${c.customDomain}`,
          ownerId: owner?.id,
          planId: plan?.id,
          planName: plan?.name,
          billing: "yearly" as const,
          startsAt: new Date(now - 30 * DAY),
          expiresAt: new Date(now + 335 * DAY),
        })),
      )
      .onConflictDoNothing();
    if (trialOwner) await seedTrial(tx, trialOwner.id, now);
    // The demo institutes sell on their own sandbox accounts, as a newcomer's demo always has.
    if (box) {
      const unconnected = await tx
        .select({ id: centers.id, slug: centers.slug })
        .from(centers)
        .where(
          and(
            inArray(
              centers.slug,
              DEMO_CENTERS.map((c) => c.slug),
            ),
            isNull(centers.merchantAccountId),
          ),
        );
      for (const center of unconnected)
        await connectSandboxAccount(tx, box, center.id, namedSandboxAccount(center.slug), owner?.id ?? null);
    }

    if (creator) {
      const [sunrise] = await tx.select({ id: centers.id }).from(centers).where(eq(centers.slug, DEMO_CENTERS[0].slug));
      const [vidya] = await tx.select({ id: centers.id }).from(centers).where(eq(centers.slug, DEMO_CENTERS[1].slug));
      await seedTeams(tx, {
        sunrise: sunrise?.id,
        vidya: vidya?.id,
        ownerId: owner?.id ?? null,
        creatorId: creator.id,
        now,
      });
      const existing = await tx
        .select({ id: contents.id })
        .from(contents)
        .where(eq(contents.creatorId, creator.id))
        .limit(1);
      if (!existing.length) {
        const lives = await tx
          .insert(contents)
          .values([
            {
              creatorId: creator.id,
              centerId: sunrise?.id,
              type: "live",
              title: "JEE Main Physics: Rotational Motion (Live)",
              description: "A two-hour live problem-solving class on torque, moment of inertia and rolling.",
              price: 0,
              liveLink: "https://meet.jit.si/pathshala-demo-physics",
              liveStartsAt: classTime(now, 2, "18:00"),
            },
            {
              creatorId: creator.id,
              centerId: vidya?.id,
              type: "live",
              title: "NEET Biology: Human Physiology Doubt Session",
              description: "Bring your doubts on circulation, respiration and excretion.",
              price: 19900,
              liveLink: "https://meet.jit.si/pathshala-demo-biology",
              liveStartsAt: classTime(now, 3, "19:00"),
            },
          ])
          .returning({ id: contents.id, price: contents.price, centerId: contents.centerId });
        const sold = [{ ...lives[1], daysAgo: 40 }];
        if (files) {
          const withFiles = await tx
            .insert(contents)
            .values([
              {
                creatorId: creator.id,
                centerId: sunrise?.id,
                type: "pdf",
                title: "Rotational Motion Formula Sheet",
                description:
                  "Every formula you need for JEE Main rotational motion, with practice problems and answers.",
                price: 14900,
                fileKey: files.pdf.key,
                fileName: "rotational-motion-formula-sheet.pdf",
                fileSize: files.pdf.size,
                fileMime: "application/pdf",
              },
              {
                creatorId: creator.id,
                centerId: sunrise?.id,
                type: "video",
                title: "Rolling Without Slipping (Video Lesson)",
                description: "A short animated lesson: how rotation and translation combine, v = ωR.",
                price: 29900,
                fileKey: files.video.key,
                fileName: "rolling-without-slipping.mp4",
                fileSize: files.video.size,
                fileMime: "video/mp4",
              },
            ])
            .returning({ id: contents.id, price: contents.price, centerId: contents.centerId });
          filesUsed = true;
          sold.push({ ...withFiles[0], daysAgo: 3 }, { ...withFiles[1], daysAgo: 12 });
        }
        // The demo student's purchases, so that the creator's sales pages have real figures.
        if (student) {
          for (const [i, item] of sold.entries()) {
            const paidAt = new Date(now - item.daysAgo * DAY);
            const [order] = await tx
              .insert(orders)
              .values({
                subject: "content",
                contentId: item.id,
                buyerId: student.id,
                creatorId: creator.id,
                // Bought on the institute's site, as students do.
                sellerCenterId: item.centerId,
                amount: item.price,
                gatewayOrderId: `order_demo_${i + 1}`,
                gatewayPaymentId: `pay_demo_${i + 1}`,
                status: "paid",
                paidAt,
                createdAt: paidAt,
              })
              .onConflictDoNothing()
              .returning({ id: orders.id });
            if (order)
              await tx
                .insert(enrollments)
                .values({ studentId: student.id, contentId: item.id, orderId: order.id, createdAt: paidAt })
                .onConflictDoNothing();
          }
        }
      }
    }
    if (creator) {
      const [sunrise] = await tx.select({ id: centers.id }).from(centers).where(eq(centers.slug, DEMO_CENTERS[0].slug));
      const [vidya] = await tx.select({ id: centers.id }).from(centers).where(eq(centers.slug, DEMO_CENTERS[1].slug));
      // Tests after the other content: a creator with content already is not seeded again.
      await seedDemoTests(tx, {
        creatorId: creator.id,
        studentId: student?.id,
        sunrise: sunrise?.id,
        vidya: vidya?.id,
        now,
      });
      await seedDemoAttendance(tx, { sunrise: sunrise?.id, creatorId: creator.id, studentId: student?.id, now });
    }
    await setMeta(tx, SEEDED_MARKER, new Date().toISOString());
    return filesUsed;
  });
}

/**
 * The demo creator is on both demo institutes' teams (so their content shows on both sites), as
 * if they had accepted invitations; Sunrise also has a creator's and a teacher's invitation
 * waiting, so its Team page shows both states and the staff-and-teachers list. The links themselves are not kept (only their hashes), as with any invitation.
 */
async function seedTeams(
  tx: Tx,
  d: { sunrise?: string; vidya?: string; ownerId: string | null; creatorId: string; now: number },
) {
  const [creator] = await tx.select({ email: users.email }).from(users).where(eq(users.id, d.creatorId));
  const invitedAt = new Date(d.now - 35 * DAY);
  const rows: (typeof memberships.$inferInsert)[] = [d.sunrise, d.vidya]
    .filter((id): id is string => Boolean(id))
    .map((centerId) => ({
      centerId,
      email: creator.email,
      invitedById: d.ownerId,
      userId: d.creatorId,
      role: "creator" as const,
      status: "active" as const,
      tokenHash: hashToken(generateToken()),
      tokenExpiresAt: new Date(invitedAt.getTime() + INVITE_TTL_DAYS * DAY),
      invitedAt,
      acceptedAt: new Date(invitedAt.getTime() + DAY),
    }));
  if (d.sunrise) {
    rows.push({
      centerId: d.sunrise,
      email: DEMO_PENDING_INVITE,
      invitedById: d.ownerId,
      role: "creator",
      status: "invited",
      tokenHash: hashToken(generateToken()),
      tokenExpiresAt: new Date(d.now - 2 * DAY + INVITE_TTL_DAYS * DAY),
      invitedAt: new Date(d.now - 2 * DAY),
    });
    rows.push({
      centerId: d.sunrise,
      email: DEMO_TEACHER_INVITE,
      invitedById: d.ownerId,
      role: "teacher",
      status: "invited",
      tokenHash: hashToken(generateToken()),
      tokenExpiresAt: new Date(d.now - DAY + INVITE_TTL_DAYS * DAY),
      invitedAt: new Date(d.now - DAY),
    });
  }
  if (rows.length) await tx.insert(memberships).values(rows).onConflictDoNothing();
}

/** The demo's institute on a free trial, as POST /api/trial makes one: a trial row and its center, and the admins' notice. */
async function seedTrial(tx: Tx, ownerId: string, now: number) {
  const t = DEMO_TRIAL_CENTER;
  const [plan] = await tx.select().from(pricingPlans).where(eq(pricingPlans.name, t.plan)).limit(1);
  const startsAt = new Date(now - t.startedDaysAgo * DAY);
  const endsAt = new Date(startsAt.getTime() + TRIAL_DAYS * DAY);
  const [center] = await tx
    .insert(centers)
    .values({
      slug: t.slug,
      instituteName: t.instituteName,
      customDomain: t.customDomain,
      website: `http://${t.customDomain}:3000`,
      templateId: t.templateId,
      ownerId,
      planId: plan?.id,
      planName: plan?.name ?? t.plan,
      billing: "monthly",
      startsAt,
      expiresAt: endsAt,
      trialEndsAt: endsAt,
      createdAt: startsAt,
    })
    .onConflictDoNothing()
    .returning({ id: centers.id });
  if (!center) return;
  await tx
    .insert(trials)
    .values({
      userId: ownerId,
      centerId: center.id,
      planId: plan?.id,
      planName: plan?.name ?? t.plan,
      billing: "monthly",
      domain: t.customDomain,
      instituteName: t.instituteName,
      ownerName: "Kavita Iyer",
      email: t.ownerEmail,
      startedAt: startsAt,
      endsAt,
    })
    .onConflictDoNothing();
  await tx.insert(notices).values({
    audience: "admins",
    centerId: center.id,
    kind: "trial-started",
    title: `Trial started: ${t.instituteName}`,
    body: `Kavita Iyer (${t.ownerEmail}) is trying ${thePlan(plan?.name ?? t.plan)} on ${t.customDomain}.`,
    createdAt: startsAt,
  });
}
