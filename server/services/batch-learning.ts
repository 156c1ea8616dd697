import { and, asc, desc, eq } from "drizzle-orm";
import { batchContents, batchStudents, batches, centers, contents } from "../db/schema/index.ts";
import type { Db } from "../db/types.ts";
import type { StudentBatchContentJson } from "#common/validation/batches.ts";
import { viewColumns } from "./content.ts";
import { heldThroughBatch, type Reader } from "./content-access.ts";
import { feeSettingsOfCenters } from "./fees/settings.ts";
import { FEES_OVERDUE_HOLD } from "#common/validation/fee-settings.ts";
import type { DeliveryService } from "./delivery.ts";
import { learningItemJson, siteCenterId } from "./catalog.ts";
import type { Site } from "./tenants.ts";

/**
 * What a student's batches give them (issue 41 §1), for their own area beside what they bought:
 * the contents of every batch they are admitted to (on an institute's domain, that institute's
 * batches alone), each marked with its batch. Waiting, moved and gone students get nothing here,
 * as content-access.ts gives them nothing.
 */
export class BatchLearningService {
  private readonly db: Db;
  private readonly delivery: DeliveryService;

  constructor(db: Db, delivery: DeliveryService) {
    this.db = db;
    this.delivery = delivery;
  }

  async contentsFor(student: Reader, site: Site, now = new Date()): Promise<StudentBatchContentJson[]> {
    const centerId = siteCenterId(site);
    const rows = await this.db
      .select({
        ...viewColumns,
        batchId: batches.id,
        batchName: batches.name,
        batchCenterId: batches.centerId,
        addedAt: batchContents.createdAt,
      })
      .from(batchStudents)
      .innerJoin(batches, eq(batches.id, batchStudents.batchId))
      .innerJoin(batchContents, eq(batchContents.batchId, batchStudents.batchId))
      .innerJoin(contents, eq(contents.id, batchContents.contentId))
      .leftJoin(centers, eq(centers.id, contents.centerId))
      .where(
        and(
          eq(batchStudents.userId, student.id),
          eq(batchStudents.status, "admitted"),
          centerId ? eq(batches.centerId, centerId) : undefined,
        ),
      )
      .orderBy(asc(batches.name), desc(batchContents.createdAt), asc(contents.id));
    // The one rule decides (content-access.ts): what an institute's defaulter policy withholds is listed, locked, in its words.
    const open = await heldThroughBatch(this.db, student.id, [...new Set(rows.map((r) => r.id))]);
    const withholding = rows.filter((r) => !open.has(r.id)).map((r) => r.batchCenterId);
    const settings = await feeSettingsOfCenters(this.db, withholding);
    return Promise.all(
      rows.map(async ({ batchId, batchName, batchCenterId, addedAt, ...content }) => {
        const held = open.has(content.id);
        // Each open row is an admission to a batch that has the content: the right to the file is established.
        const link = held && content.fileKey ? await this.delivery.signedLink(student, content) : null;
        return {
          batch: { _id: batchId, name: batchName },
          addedAt: addedAt.toISOString(),
          content: learningItemJson(content, { reader: student, enrollmentId: null, inBatch: held, link, now }),
          withheld: held ? null : (settings.get(batchCenterId)?.defaulterPolicy ?? FEES_OVERDUE_HOLD),
        };
      }),
    );
  }
}
