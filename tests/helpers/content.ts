import { eq } from "drizzle-orm";
import { centers, orders, users } from "../../server/db/schema/index.ts";
import type { TestApp } from "./app.ts";
import { bearer, PNG_BYTES } from "./http.ts";

const ascii = (s: string) => Uint8Array.from(s, (ch) => ch.charCodeAt(0));
const join = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
};

/**
 * The smallest PDF pdf-lib reads (and stamps): one blank page. FIXTURES.pdf pads it to a size with
 * a comment line after its end, which readers skip.
 */
const ONE_PAGE_PDF = ascii(
  "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n" +
    "3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n%",
);

/** Files that pass (or fail) the magic-byte checks; the rest of their bytes is filler. */
export const FIXTURES = {
  /** A real PDF of `size` bytes (at least 300): `filler` gives the bytes after its end (printable, no line breaks). */
  pdf: (size = 2048, filler: (i: number) => number = () => 0x20) =>
    join(
      ONE_PAGE_PDF,
      Uint8Array.from({ length: Math.max(0, size - ONE_PAGE_PDF.byteLength) }, (_, i) =>
        filler(ONE_PAGE_PDF.byteLength + i),
      ),
    ),
  /** Starts like a PDF (the magic bytes pass) but is not one any reader can open. */
  brokenPdf: (size = 2048) => join(ascii("%PDF-1.7\n"), new Uint8Array(Math.max(0, size - 9)).fill(0x20)),
  /** A password-protected PDF: its trailer names the standard security handler's /Encrypt dictionary. */
  encryptedPdf: () =>
    ascii(
      "%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n" +
        "3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>\nendobj\n" +
        `4 0 obj\n<< /Filter /Standard /V 1 /R 2 /O <${"ab".repeat(32)}> /U <${"cd".repeat(32)}> /P -44 >>\nendobj\n` +
        `trailer\n<< /Root 1 0 R /Encrypt 4 0 R /ID [<${"01".repeat(16)}> <${"01".repeat(16)}>] >>\n%%EOF\n`,
    ),
  mp4: (size = 4096) =>
    join(new Uint8Array([0, 0, 0, 0x20]), ascii("ftypisom"), new Uint8Array(Math.max(0, size - 12)).fill(7)),
  webm: (size = 4096) => join(new Uint8Array([0x1a, 0x45, 0xdf, 0xa3]), new Uint8Array(Math.max(0, size - 4)).fill(3)),
  png: () => PNG_BYTES,
  html: () => ascii("<html><body>not a pdf</body></html>"),
};

export type UploadFields = Partial<
  Record<"title" | "description" | "type" | "price" | "liveLink" | "liveStartsAt" | "businessId", string>
>;

/** POST /api/content as our page sends it: text fields first, then the files. */
export function uploadContent(
  t: TestApp,
  token: string,
  fields: UploadFields,
  files: { file?: Uint8Array<ArrayBuffer> | Blob; fileName?: string; thumbnail?: Uint8Array<ArrayBuffer> } = {},
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.set(k, v);
  if (files.file)
    form.set("file", files.file instanceof Blob ? files.file : new Blob([files.file]), files.fileName ?? "lesson.bin");
  if (files.thumbnail) form.set("thumbnail", new Blob([files.thumbnail]), "thumb.png");
  return t.request("/api/content", { method: "POST", headers: bearer(token), body: form });
}

export async function makeCenter(t: TestApp, slug: string, overrides: Partial<typeof centers.$inferInsert> = {}) {
  const [row] = await t.database.db
    .insert(centers)
    .values({ slug, instituteName: `Institute ${slug}`, customDomain: `${slug}.test`, ...overrides })
    .returning();
  t.services.tenants.changed();
  return row;
}

let orderCounter = 0;
/** A paid content order, as the payment flow (issue 9) will record it. */
export async function insertPaidOrder(
  t: TestApp,
  contentId: string,
  studentId: string,
  amountPaise: number,
  paidAt = new Date(),
  status: "paid" | "created" | "failed" = "paid",
) {
  const [content] = await t.database.db.query.contents.findMany({
    where: (c, { eq: e }) => e(c.id, contentId),
    limit: 1,
  });
  orderCounter += 1;
  const [row] = await t.database.db
    .insert(orders)
    .values({
      subject: "content",
      contentId,
      buyerId: studentId,
      creatorId: content.creatorId,
      amount: amountPaise,
      gatewayOrderId: `order_test_${Date.now()}_${orderCounter}`,
      gatewayPaymentId: status === "paid" ? `pay_test_${Date.now()}_${orderCounter}` : null,
      status,
      paidAt: status === "paid" ? paidAt : null,
    })
    .returning();
  return row;
}

export async function userIdOf(t: TestApp, email: string) {
  const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return row.id;
}
