import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, or } from "drizzle-orm";
import { attendanceQrScans, centers } from "../../db/schema/index.ts";
import type { Db } from "../../db/types.ts";
import type { SiteLinks } from "../../messages/links.ts";
import { badRequest, conflict } from "../../http/errors.ts";
import { ensureMeta } from "../meta.ts";
import {
  QR_EXPIRED,
  QR_GRACE_MS,
  QR_INVALID,
  QR_NOT_RUNNING,
  QR_NOT_STUDENT,
  QR_OPENS_MINUTES,
  QR_OTHER_PHONE,
  QR_PHONE_USED,
  QR_REGISTER_CLOSED,
  QR_WINDOW_MS,
  SESSION_CANCELLED,
  type QrCodeJson,
  type QrScanJson,
} from "#common/validation/attendance.ts";
import { registerAccess, studentAccess, type Asker } from "./access.ts";
import { lockRegister, mergeAutomatic, minutesAfterStart } from "./marks.ts";
import { rulesOf } from "./policy.ts";
import { runsAt } from "./sessions.ts";
import { toSessionJson } from "../timetables/session-rows.ts";

/** app_meta key of the QR codes' signing secret, made once and shared by every instance (as file links' is). */
export const QR_SECRET_META = "attendance_qr_secret";

const CODE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{22})$/;

/**
 * QR self-marking (issue 41 §3, decision 0044). The code on the teacher's screen is the session's
 * id and the current 20-second window, signed with an HMAC under a secret of the server's: no
 * table holds codes, and every instance reads every other's. A scan is taken only in the code's
 * window (or the previous one for 5 seconds after it rotates), so a forwarded screenshot stops
 * working within seconds; and one phone (a long-lived device cookie) marks one student per session.
 */
export class QrService {
  private readonly db: Db;
  private readonly links: SiteLinks;
  private readonly now: () => number;
  private secretPromise?: Promise<Buffer>;

  constructor(deps: { db: Db; links: SiteLinks; now?: () => number }) {
    this.db = deps.db;
    this.links = deps.links;
    this.now = deps.now ?? Date.now;
  }

  /** The code to show now, while the session runs; its link is on the institute's own site. */
  async code(asker: Asker, sessionId: string): Promise<QrCodeJson> {
    const session = await registerAccess(this.db, asker, sessionId, "attendance.mark");
    if (session.status === "cancelled") throw conflict(SESSION_CANCELLED);
    const now = this.now();
    if (!runsAt(session, now, QR_OPENS_MINUTES)) throw conflict(QR_NOT_RUNNING);
    const window = Math.floor(now / QR_WINDOW_MS);
    const code = `${session.id}.${window.toString(36)}.${await this.mac(session.id, window)}`;
    const [center] = await this.db
      .select({ slug: centers.slug, customDomain: centers.customDomain })
      .from(centers)
      .where(eq(centers.id, session.centerId));
    return {
      code,
      expiresAt: new Date((window + 1) * QR_WINDOW_MS).toISOString(),
      url: this.links.to(center, `/attend?c=${encodeURIComponent(code)}`),
    };
  }

  /** A student's scan from the phone `device` (its cookie's value): present or late, merged into the register. */
  async scan(asker: Asker, device: string, code: string): Promise<QrScanJson> {
    const parts = CODE.exec(code.trim());
    if (!parts) throw badRequest(QR_INVALID);
    const [, sessionId, windowText, mac] = parts;
    const window = parseInt(windowText, 36);
    if (!safeEqual(mac, await this.mac(sessionId, window))) throw badRequest(QR_INVALID);
    const now = this.now();
    const current = Math.floor(now / QR_WINDOW_MS);
    const fresh = window === current || (window === current - 1 && now - current * QR_WINDOW_MS <= QR_GRACE_MS);
    if (!fresh) throw conflict(QR_EXPIRED);
    const session = await studentAccess(this.db, asker, sessionId, QR_NOT_STUDENT);
    if (session.status === "cancelled" || !runsAt(session, now, QR_OPENS_MINUTES)) throw conflict(QR_NOT_RUNNING);
    const rules = await rulesOf(this.db, session.centerId);
    const late = now > session.startsAt.getTime() + rules.lateAfterMinutes * 60_000;
    const deviceId = createHash("sha256").update(device).digest("base64url");
    const mark = await this.db.transaction(async (tx) => {
      const register = await lockRegister(tx, session);
      if (register.closedAt) throw conflict(QR_REGISTER_CLOSED);
      const scans = await tx
        .select({ deviceId: attendanceQrScans.deviceId, userId: attendanceQrScans.userId })
        .from(attendanceQrScans)
        .where(
          and(
            eq(attendanceQrScans.sessionId, session.id),
            or(eq(attendanceQrScans.deviceId, deviceId), eq(attendanceQrScans.userId, asker.userId)),
          ),
        );
      if (scans.some((s) => s.deviceId === deviceId && s.userId !== asker.userId)) throw conflict(QR_PHONE_USED);
      if (scans.some((s) => s.userId === asker.userId && s.deviceId !== deviceId)) throw conflict(QR_OTHER_PHONE);
      if (scans.length === 0)
        await tx.insert(attendanceQrScans).values({
          sessionId: session.id,
          centerId: session.centerId,
          deviceId,
          userId: asker.userId,
          scannedAt: new Date(now),
        });
      return mergeAutomatic(tx, session, {
        userId: asker.userId,
        status: late ? "late" : "present",
        minutesLate: late ? minutesAfterStart(session, now) : null,
        source: "qr",
        at: new Date(now),
      });
    });
    return { status: late ? "late" : "present", mark, session: toSessionJson(session) };
  }

  private async mac(sessionId: string, window: number): Promise<string> {
    return createHmac("sha256", await this.secret())
      .update(`attendance-qr/v1\n${sessionId}\n${window}`)
      .digest("base64url")
      .slice(0, 22);
  }

  private secret(): Promise<Buffer> {
    this.secretPromise ??= ensureMeta(this.db, QR_SECRET_META, () => randomBytes(32).toString("base64url"))
      .then((value) => Buffer.from(value, "base64url"))
      .catch((error) => {
        this.secretPromise = undefined;
        throw error;
      });
    return this.secretPromise;
  }
}

/** A new phone's device id: 256 random bits, kept in an httpOnly cookie. */
export const newDeviceId = () => randomBytes(32).toString("base64url");

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
