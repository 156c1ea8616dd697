import type { Db, DbOrTx } from "../../db/types.ts";
import type { Logger } from "../../runtime/logger.ts";
import type { Storage } from "../../storage/index.ts";
import type { TeamService } from "../team.ts";
import type { SiteService } from "../sites.ts";
import { QuestionImageService } from "../mock-tests/question-images.ts";
import { QuestionBankService } from "../mock-tests/question-bank.ts";
import { MockTestService } from "../mock-tests/tests.ts";
import { AttemptService } from "../mock-tests/attempts.ts";
import { PaperCache } from "../mock-tests/papers.ts";
import { SeriesService } from "../mock-tests/series.ts";
import { TestsAreaQueries } from "../mock-tests/area-queries.ts";
import { announceResults } from "../mock-tests/results-released.ts";
import type { MessagingServices } from "./messaging.ts";
import type { Role } from "#common/validation/account.ts";
import { repeat } from "../../runtime/repeat.ts";

/** Mock tests (docs/mock-tests.md): the question bank, tests, sittings, series and the Tests area. */
export interface MockTestServices {
  questionBank: QuestionBankService;
  questionImages: QuestionImageService;
  mockTests: MockTestService;
  attempts: AttemptService;
  series: SeriesService;
  testsArea: TestsAreaQueries;
}

export function createMockTests(
  db: Db,
  logger: Logger,
  storage: Storage,
  { links, messages }: MessagingServices,
  { team, sites }: { team: TeamService; sites: SiteService },
): MockTestServices {
  const questionImages = new QuestionImageService(db, storage);
  const questionBank = new QuestionBankService(db, questionImages);
  const papers = new PaperCache(db);
  const resultsReleased = (tx: DbOrTx, testId: string) => announceResults(tx, testId, messages, links);
  const attempts = new AttemptService({
    db,
    papers,
    logger: logger.child({ component: "attempts" }),
    resultsReleased,
  });
  // Tests and series go to the live institutes where the policy lets the author write tests.
  const assignable = (reader: { id: string; role: Role }) => team.assignableBusinesses(reader, "tests.write");
  const catalogChanged = (centerId: string | null) => sites.catalogChanged(centerId);
  return {
    questionBank,
    questionImages,
    attempts,
    mockTests: new MockTestService({
      db,
      bank: questionBank,
      papers,
      assignable,
      catalogChanged,
      rescore: (testId) => attempts.rescore(testId),
      resultsReleased,
    }),
    series: new SeriesService({ db, assignable, catalogChanged }),
    testsArea: new TestsAreaQueries(db),
  };
}

/**
 * The tests' clock: attempts past their deadline are submitted and closed windows ranked, with
 * no browser open. Started on the leading instance (server/db/leadership.ts); if two ever run it
 * (while leadership passes), an attempt is still closed once (row locks).
 */
export function startTestClock(attempts: AttemptService, logger: Logger, everyMs = 5_000): () => void {
  return repeat(
    () => attempts.submitDue(),
    everyMs,
    (error) => logger.warn("the tests' clock failed", { error }),
    {
      immediately: true,
    },
  );
}
