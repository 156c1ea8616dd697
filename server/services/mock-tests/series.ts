import { and, asc, desc, eq, inArray, isNull } from "drizzle-orm";
import { centers, contents, enrollments, mockTests, seriesTests } from "../../db/schema/index.ts";
import type { Db } from "../../db/types.ts";
import { badRequest, parseWith } from "../../http/errors.ts";
import { CreateSeriesSchema } from "#common/mock-tests/test-input.ts";
import { heldThroughBatch, type Reader } from "../content-access.ts";
import type { Site } from "../tenants.ts";
import { availableOn } from "../catalog.ts";
import { examRowsFor, instituteFor } from "./exam-access.ts";
import { testsFor } from "./tests.ts";

export const SERIES_TEXTS = {
  unknownTests: "Some tests are not your team's, or belong to another institute",
} as const;

export interface SeriesJson {
  _id: string;
  title: string;
  description: string;
  price: number;
  businessId: string | null;
  businessName: string | null;
  tests: { _id: string; title: string }[];
  /** For a student: whether they bought it. */
  enrolled?: boolean;
  createdAt: string;
}

export interface SeriesServiceDeps {
  db: Db;
  assignable: (reader: Reader) => Promise<{ _id: string }[]>;
  catalogChanged: (centerId: string | null) => void;
}

/** Test series: an ordered bundle of tests sold as one content (type "series"); buying it opens every test in it. */
export class SeriesService {
  private readonly deps: SeriesServiceDeps;

  constructor(deps: SeriesServiceDeps) {
    this.deps = deps;
  }

  async create(author: Reader, input: unknown): Promise<SeriesJson> {
    const body = parseWith(CreateSeriesSchema, input);
    const { db } = this.deps;
    const businessId = await instituteFor(author, body.businessId, this.deps.assignable);
    const usable = await db
      .select({ id: contents.id })
      .from(contents)
      .innerJoin(mockTests, eq(mockTests.contentId, contents.id))
      .where(
        and(
          inArray(contents.id, body.tests),
          isNull(contents.archivedAt),
          testsFor(author, "write"),
          businessId ? eq(mockTests.centerId, businessId) : isNull(mockTests.centerId),
        ),
      );
    if (usable.length !== body.tests.length) throw badRequest(SERIES_TEXTS.unknownTests);
    const id = await db.transaction(async (tx) => {
      const [series] = await tx
        .insert(contents)
        .values({
          creatorId: author.id,
          centerId: businessId,
          type: "series",
          title: body.title,
          description: body.description,
          price: body.price,
        })
        .returning({ id: contents.id });
      await tx
        .insert(seriesTests)
        .values(body.tests.map((testId, position) => ({ seriesId: series.id, testId, position })));
      return series.id;
    });
    this.deps.catalogChanged(businessId);
    const [made] = await this.rows(eq(contents.id, id));
    return made;
  }

  /** The series of the institutes the viewer holds a role in, and their own, newest first. */
  async listForTeam(viewer: Reader): Promise<SeriesJson[]> {
    return this.rows(examRowsFor(viewer, "read", { institute: contents.centerId, author: contents.creatorId }));
  }

  /** The series on sale on this site, with whether the student holds each (bought, or given by their batch). */
  async listForSite(student: Reader | null, site: Site): Promise<SeriesJson[]> {
    const list = await this.rows(availableOn(site));
    if (!student || !list.length) return list;
    const ids = list.map((s) => s._id);
    const [bought, inBatch] = await Promise.all([
      this.deps.db
        .select({ contentId: enrollments.contentId })
        .from(enrollments)
        .where(and(eq(enrollments.studentId, student.id), inArray(enrollments.contentId, ids))),
      heldThroughBatch(this.deps.db, student.id, ids, "tests"),
    ]);
    const owned = new Set([...bought.map((b) => b.contentId), ...inBatch]);
    return list.map((s) => ({ ...s, enrolled: owned.has(s._id) }));
  }

  private async rows(where: ReturnType<typeof and>): Promise<SeriesJson[]> {
    const found = await this.deps.db
      .select({
        id: contents.id,
        title: contents.title,
        description: contents.description,
        price: contents.price,
        centerId: contents.centerId,
        businessName: centers.instituteName,
        createdAt: contents.createdAt,
      })
      .from(contents)
      .leftJoin(centers, eq(centers.id, contents.centerId))
      .where(and(eq(contents.type, "series"), isNull(contents.archivedAt), where))
      .orderBy(desc(contents.createdAt));
    if (!found.length) return [];
    const members = await this.deps.db
      .select({ seriesId: seriesTests.seriesId, testId: seriesTests.testId, title: contents.title })
      .from(seriesTests)
      .innerJoin(contents, eq(contents.id, seriesTests.testId))
      .where(
        inArray(
          seriesTests.seriesId,
          found.map((s) => s.id),
        ),
      )
      .orderBy(asc(seriesTests.position));
    return found.map((s) => ({
      _id: s.id,
      title: s.title,
      description: s.description,
      price: s.price / 100,
      businessId: s.centerId,
      businessName: s.businessName,
      tests: members.filter((m) => m.seriesId === s.id).map((m) => ({ _id: m.testId, title: m.title })),
      createdAt: s.createdAt.toISOString(),
    }));
  }
}
