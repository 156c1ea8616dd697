import { and, count, desc, eq } from "drizzle-orm";
import { centers, enquiries, users } from "../db/schema/index.ts";
import type { MessageService } from "../messages/service.ts";
import type { SiteLinks } from "../messages/links.ts";
import { e164 } from "../messages/phone.ts";
import type { Db } from "../db/types.ts";
import type { EnquiryInput } from "#common/validation/enquiry.ts";

export type EnquiryRow = typeof enquiries.$inferSelect;
export type EnquiryStatus = EnquiryRow["status"];

/** Leads left on an institute's site; each belongs to exactly one center. */
export class EnquiryService {
  private readonly db: Db;

  private readonly messages: MessageService;
  private readonly links: SiteLinks;

  constructor(db: Db, messages: MessageService, links: SiteLinks) {
    this.db = db;
    this.messages = messages;
    this.links = links;
  }

  /**
   * Keeps the lead and, in the same transaction, tells the institute's owner (with a link to
   * their leads, in their business area on the platform) and thanks the visitor.
   */
  async create(centerId: string, input: EnquiryInput): Promise<EnquiryRow> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(enquiries)
        .values({
          centerId,
          name: input.name,
          phone: input.phone,
          email: input.email,
          program: input.program || null,
          message: input.message || null,
          kind: input.kind,
        })
        .returning();
      const [center] = await tx
        .select({ institute: centers.instituteName, ownerEmail: users.email, ownerId: users.id })
        .from(centers)
        .leftJoin(users, eq(users.id, centers.ownerId))
        .where(eq(centers.id, centerId));
      if (center?.ownerEmail)
        await this.messages.send(tx, {
          template: "enquiry-received",
          values: {
            institute: center.institute,
            kind: row.kind,
            name: row.name,
            phone: row.phone,
            email: row.email,
            program: row.program ?? "",
            message: row.message ?? "",
            link: this.links.to(null, "/business/leads"),
          },
          to: { email: center.ownerEmail, userId: center.ownerId },
          centerId,
        });
      await this.messages.send(tx, {
        template: "enquiry-acknowledged",
        // Nothing the visitor typed goes back to the address they typed (issue 37 §6).
        values: { institute: center?.institute ?? "" },
        to: { email: row.email, phone: e164(row.phone) },
        centerId,
      });
      return row;
    });
  }

  async list(centerId: string, options: { status?: EnquiryStatus; limit?: number; offset?: number } = {}) {
    const where = options.status
      ? and(eq(enquiries.centerId, centerId), eq(enquiries.status, options.status))
      : eq(enquiries.centerId, centerId);
    const [rows, [{ total }]] = await Promise.all([
      this.db
        .select()
        .from(enquiries)
        .where(where)
        .orderBy(desc(enquiries.createdAt))
        .limit(options.limit ?? 50)
        .offset(options.offset ?? 0),
      this.db.select({ total: count() }).from(enquiries).where(where),
    ]);
    return { rows, total };
  }

  /** Changes a lead's status; undefined when the lead is not this center's. */
  async setStatus(centerId: string, id: string, status: EnquiryStatus): Promise<EnquiryRow | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined;
    const [row] = await this.db
      .update(enquiries)
      .set({ status, updatedAt: new Date() })
      .where(and(eq(enquiries.id, id), eq(enquiries.centerId, centerId)))
      .returning();
    return row;
  }

  async countByStatus(centerId: string): Promise<Record<EnquiryStatus, number>> {
    const rows = await this.db
      .select({ status: enquiries.status, n: count() })
      .from(enquiries)
      .where(eq(enquiries.centerId, centerId))
      .groupBy(enquiries.status);
    const out: Record<EnquiryStatus, number> = { new: 0, contacted: 0, enrolled: 0 };
    for (const r of rows) out[r.status] = r.n;
    return out;
  }
}

export function toEnquiryJson(row: EnquiryRow) {
  return {
    _id: row.id,
    name: row.name,
    phone: row.phone,
    email: row.email,
    program: row.program,
    message: row.message,
    kind: row.kind,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
  };
}
