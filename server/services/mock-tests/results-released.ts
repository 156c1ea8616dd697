import { and, desc, eq, sql } from "drizzle-orm";
import { attempts, centers, contents, users } from "../../db/schema/index.ts";
import type { DbOrTx } from "../../db/types.ts";
import type { MessageService } from "../../messages/service.ts";
import type { SiteLinks } from "../../messages/links.ts";

/**
 * Tells every student who took the test that its results are out, with a link to their latest
 * sitting's result on the institute's site, in the transaction that releases them.
 */
export async function announceResults(tx: DbOrTx, testId: string, messages: MessageService, links: SiteLinks) {
  const [test] = await tx
    .select({
      title: contents.title,
      centerId: contents.centerId,
      slug: centers.slug,
      customDomain: centers.customDomain,
    })
    .from(contents)
    .leftJoin(centers, eq(centers.id, contents.centerId))
    .where(eq(contents.id, testId));
  if (!test) return;
  const takers = await tx
    .selectDistinctOn([attempts.studentId], {
      attemptId: attempts.id,
      studentId: attempts.studentId,
      name: users.name,
      email: users.email,
    })
    .from(attempts)
    .innerJoin(users, eq(users.id, attempts.studentId))
    .where(and(eq(attempts.testId, testId), sql`${attempts.submittedAt} is not null`))
    .orderBy(attempts.studentId, desc(attempts.number));
  const site = test.slug ? { slug: test.slug, customDomain: test.customDomain } : null;
  await messages.sendAll(
    tx,
    takers.map((taker) => ({
      template: "results-released" as const,
      values: {
        name: taker.name,
        test: test.title,
        link: links.to(site, `/student/mock-tests/attempts/${taker.attemptId}/result`),
      },
      to: { email: taker.email, userId: taker.studentId },
      centerId: test.centerId,
    })),
  );
}
