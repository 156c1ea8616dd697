import type { Database, DbOrTx } from "../db/types.ts";
import type { Env } from "../runtime/env.ts";
import type { Logger } from "../runtime/logger.ts";
import { SessionStore, type SessionRow } from "../auth/sessions.ts";
import { SessionCache } from "../caches/session-cache.ts";
import { ReadCaches, readTags } from "../caches/read-cache.ts";
import { createStorage, type Storage } from "../storage/index.ts";
import { TenantDirectory } from "./tenants.ts";
import { RateLimiter } from "./rate-limit.ts";
import { AccountService } from "./accounts.ts";
import { MediaService } from "./media.ts";
import { QuestionImageService } from "./mock-tests/question-images.ts";
import { PlanService } from "./plans.ts";
import { BusinessService } from "./business.ts";
import { EnquiryService } from "./enquiries.ts";
import { SiteService } from "./sites.ts";
import { createPayments, type Payments } from "../payments/index.ts";
import { localAddress } from "../payments/config.ts";
import { secretBoxFor } from "../payments/secrets.ts";
import { PurchaseService } from "./purchases.ts";
import { DomainService } from "./domains.ts";
import { networkProbe, type DomainProbe } from "./domain-probe.ts";
import { ContentService } from "./content.ts";
import { DeliveryService } from "./delivery.ts";
import { SalesService } from "./sales.ts";
import { SeminarService } from "./seminar.ts";
import { CenterAdminService } from "./center-admin.ts";
import { AdminFeedService } from "./admin-feed.ts";
import { BusinessFiguresService } from "./business-figures.ts";
import { CatalogService } from "./catalog.ts";
import { EnrollmentService } from "./enrollments.ts";
import { TeamService } from "./team.ts";
import { MembersService } from "./members.ts";
import { NoticeService } from "./notices.ts";
import { TrialService } from "./trials.ts";
import { RefundService } from "./refunds.ts";
import { SettingsService } from "./settings.ts";
import { QuestionBankService } from "./mock-tests/question-bank.ts";
import { MockTestService } from "./mock-tests/tests.ts";
import { AttemptService } from "./mock-tests/attempts.ts";
import { PaperCache } from "./mock-tests/papers.ts";
import { SeriesService } from "./mock-tests/series.ts";
import { TestsAreaQueries } from "./mock-tests/area-queries.ts";
import { MessageService } from "../messages/service.ts";
import { JobQueue, SEND_RETRIES } from "../messages/queue.ts";
import { resolveMessagingConfig } from "../messages/config.ts";
import { PasswordResetService } from "./password-resets.ts";
import { PhoneService } from "./phones.ts";
import { EmailChangeService } from "./email-changes.ts";
import { homeFor } from "#common/home.ts";
import { accountHome } from "./account-home.ts";
import { AfterAnswer } from "./after-answer.ts";
import { SiteLinks } from "../messages/links.ts";
import { Reminders } from "../messages/reminders.ts";
import { sendReceipt, sendRefundNote } from "../messages/receipts.ts";
import { InvoiceService } from "../invoices/service.ts";
import { announceResults } from "./mock-tests/results-released.ts";
import { MessageLanguageService } from "./message-languages.ts";

/** Domain services shared by the API routers and the page loaders. */
export interface Services {
  /** Every link a message carries is built here (decision 0028). */
  links: SiteLinks;
  /** Work a request causes after its answer (what it would tell by its time). */
  afterAnswer: AfterAnswer;
  tenants: TenantDirectory;
  sessions: SessionStore;
  messages: MessageService;
  reminders: Reminders;
  passwordResets: PasswordResetService;
  phones: PhoneService;
  emailChanges: EmailChangeService;
  rateLimiter: RateLimiter;
  accounts: AccountService;
  storage: Storage;
  media: MediaService;
  plans: PlanService;
  business: BusinessService;
  messageLanguages: MessageLanguageService;
  enquiries: EnquiryService;
  sites: SiteService;
  payments: Payments;
  purchases: PurchaseService;
  domains: DomainService;
  content: ContentService;
  delivery: DeliveryService;
  sales: SalesService;
  seminar: SeminarService;
  centers: CenterAdminService;
  adminFeed: AdminFeedService;
  businessFigures: BusinessFiguresService;
  catalog: CatalogService;
  enrollments: EnrollmentService;
  team: TeamService;
  members: MembersService;
  notices: NoticeService;
  trials: TrialService;
  refunds: RefundService;
  invoices: InvoiceService;
  settings: SettingsService;
  questionBank: QuestionBankService;
  questionImages: QuestionImageService;
  mockTests: MockTestService;
  attempts: AttemptService;
  series: SeriesService;
  testsArea: TestsAreaQueries;
}

export interface ServiceDeps {
  env: Env;
  database: Database;
  logger: Logger;
  /** Tests substitute storage (e.g. a temporary folder). */
  storage?: Storage;
  /** How domains are looked at when their owners prove them; tests give one without the network. */
  domainProbe?: DomainProbe;
}

export function createServices({
  env,
  database,
  logger,
  storage = createStorage(env, storageCleanupLogger(logger)),
  domainProbe = networkProbe({ localPort: env.PORT, localHost: localAddress(env.HOST) }),
}: ServiceDeps): Services {
  const { db } = database;
  const rateLimiter = new RateLimiter(db);
  const sessions = new SessionStore(db, Date.now, new SessionCache<SessionRow>(database));
  // The signed-in reads every page asks for, kept in memory until the database announces a change.
  const reads = new ReadCaches(database);
  const links = new SiteLinks(env);
  const messages = new MessageService({
    db,
    queue: new JobQueue(database, logger.child({ component: "jobs" }), SEND_RETRIES, {
      expireInSeconds: env.JOB_EXPIRY_SECONDS,
      superviseIntervalSeconds: env.JOB_SUPERVISE_SECONDS,
    }),
    config: resolveMessagingConfig(env),
    logger: logger.child({ component: "messages" }),
    links,
  });
  const accounts = new AccountService(
    db,
    rateLimiter,
    (userId) => sessions.forgetUser(userId),
    () => reads.forget(readTags.roles),
    async (tx, user) => {
      const home = await accountHome(tx, user);
      await messages.send(tx, {
        template: "welcome",
        values: { name: user.name, link: links.to(home.center, homeFor(user.role)) },
        to: { email: user.email, userId: user.id },
        centerId: home.centerId,
      });
    },
  );
  const afterAnswer = new AfterAnswer(logger.child({ component: "after-answer" }));
  const tenants = new TenantDirectory(database, {
    platformHosts: env.PLATFORM_HOSTS,
    platformDomain: env.PLATFORM_DOMAIN,
    cacheSize: env.HOST_CACHE_ENTRIES,
  });
  const sites = new SiteService(database, tenants, env.SITE_CACHE_MB * 1024 * 1024);
  const content = new ContentService(
    db,
    storage,
    { pdf: env.MAX_PDF_BYTES, video: env.MAX_VIDEO_BYTES, image: env.MAX_IMAGE_BYTES },
    reads,
    (centerId) => sites.catalogChanged(centerId),
    // Uploads are checked by the stamping that students' copies get (made below).
    (fileKey): Promise<void> => delivery.checkStampable(fileKey),
  );
  const plans = new PlanService(db, database);
  const invoices = new InvoiceService(db, {
    legalName: env.PLATFORM_LEGAL_NAME ?? null,
    legalAddress: env.PLATFORM_LEGAL_ADDRESS ?? null,
    gstin: env.PLATFORM_GSTIN ?? null,
    sac: env.GST_SAC,
    rate: env.GST_RATE,
  });
  messages.attachInvoicesWith((invoiceId) => invoices.attachment(invoiceId));
  const payments = createPayments(env, db, logger, {
    box: secretBoxFor(env),
    webhookUrl: (accountId) => links.to(null, `/api/payment/webhook/${accountId}`),
    centerChanged: () => tenants.changed(),
  });
  const notices = new NoticeService(db);
  const domains = new DomainService({
    db,
    tenants,
    rateLimiter,
    probe: domainProbe,
    logger: logger.child({ component: "domains" }),
    platformHosts: env.PLATFORM_HOSTS,
    platformDomain: env.PLATFORM_DOMAIN,
  });
  const trials: TrialService = new TrialService({
    db,
    plans,
    domains,
    tenants,
    notices,
    rateLimiter,
    logger,
    platformDomain: env.PLATFORM_DOMAIN,
  });
  const purchases: PurchaseService = new PurchaseService({
    db,
    plans,
    payments,
    tenants,
    domains,
    rateLimiter,
    logger,
    platformDomain: env.PLATFORM_DOMAIN,
    convertTrial: (tx, center, planName): Promise<void> => trials.convert(tx, center, planName),
    receipt: async (tx, receipt) => sendReceipt(tx, messages, links, receipt, await invoices.issue(tx, receipt.source)),
  });
  payments.completion.register(purchases.orderKind);
  const delivery = new DeliveryService(db, storage, (id) => content.forFile(id), {
    logger: logger.child({ component: "delivery" }),
  });
  const refunds = new RefundService({
    db,
    payments,
    notices,
    tenants,
    logger: logger.child({ component: "refunds" }),
    refunded: (tx, refund) => sendRefundNote(tx, messages, links, refund, invoices),
  });
  const enrollments = new EnrollmentService({
    db,
    payments,
    delivery,
    rateLimiter,
    logger,
    reads,
    receipt: async (tx, receipt) => sendReceipt(tx, messages, links, receipt, await invoices.issue(tx, receipt.source)),
  });
  payments.completion.register(enrollments.orderKind);
  const members = new MembersService({
    db,
    rateLimiter,
    reads,
    catalogChanged: (centerId) => sites.catalogChanged(centerId),
    messages,
    links,
  });
  const team = new TeamService({ db, reads, catalogChanged: (centerId) => sites.catalogChanged(centerId), members });
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
  const mockTests = new MockTestService({
    db,
    bank: questionBank,
    papers,
    assignable: (reader) => team.assignableBusinesses(reader),
    catalogChanged: (centerId) => sites.catalogChanged(centerId),
    rescore: (testId) => attempts.rescore(testId),
    resultsReleased,
  });
  return {
    links,
    afterAnswer,
    tenants,
    sessions,
    messages,
    members,
    reminders: new Reminders({ db, messages, links }),
    passwordResets: new PasswordResetService({ db, accounts, sessions, messages, rateLimiter, links, afterAnswer }),
    phones: new PhoneService({ db, messages, rateLimiter, afterAnswer }),
    emailChanges: new EmailChangeService({
      db,
      messages,
      accounts,
      userChanged: (userId) => sessions.forgetUser(userId),
      links,
    }),
    rateLimiter,
    accounts,
    storage,
    media: new MediaService(storage, accounts),
    plans,
    payments,
    purchases,
    domains,
    business: new BusinessService(db),
    messageLanguages: new MessageLanguageService(db),
    enquiries: new EnquiryService(db, messages, links),
    sites,
    content,
    delivery,
    sales: new SalesService(db),
    seminar: new SeminarService(db, rateLimiter, messages),
    centers: new CenterAdminService(db, tenants, domains, (ids) => refunds.forCenters(ids)),
    adminFeed: new AdminFeedService(db, reads),
    businessFigures: new BusinessFiguresService(db),
    catalog: new CatalogService(db, delivery, (centerId) => sites.catalogVersion(centerId)),
    enrollments,
    team,
    notices,
    trials,
    refunds,
    invoices,
    settings: new SettingsService(db, env, database),
    questionBank,
    questionImages,
    mockTests,
    attempts,
    series: new SeriesService({
      db,
      assignable: (reader) => team.assignableBusinesses(reader),
      catalogChanged: (centerId) => sites.catalogChanged(centerId),
    }),
    testsArea: new TestsAreaQueries(db),
  };
}

function storageCleanupLogger(logger: Logger) {
  return (error: unknown) =>
    logger.warn("could not abort an unfinished upload in object storage", { error: (error as Error).message });
}

/** Periodic clean-up of rows that can no longer matter; every instance may run it. */
export function startHousekeeping(services: Services, logger: Logger, everyMs = 60 * 60 * 1000): () => void {
  const run = async () => {
    try {
      await services.sessions.purgeExpired();
      await services.rateLimiter.purgeOlderThan(24 * 60 * 60 * 1000);
      // Tells owners and admins of trials that ended unpaid (their sites went offline at the end, on read).
      await services.trials.announceEnded();
    } catch (error) {
      logger.warn("housekeeping failed", { error });
    }
  };
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The tests' clock: attempts past their deadline are submitted and closed windows ranked, with
 * no browser open. Every instance may run it; an attempt is closed once (row locks).
 */
export function startTestClock(services: Services, logger: Logger, everyMs = 5_000): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await services.attempts.submitDue();
    } catch (error) {
      logger.warn("the tests' clock failed", { error });
    } finally {
      running = false;
    }
  };
  void run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
