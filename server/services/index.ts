import type { Database } from "../db/types.ts";
import type { Env } from "../runtime/env.ts";
import type { Logger } from "../runtime/logger.ts";
import { ReadCaches } from "../caches/read-cache.ts";
import { createStorage, type Storage } from "../storage/index.ts";
import { localAddress } from "../payments/config.ts";
import { TenantDirectory } from "./tenants.ts";
import { RateLimiter } from "./rate-limit.ts";
import { BusinessService } from "./business.ts";
import { EnquiryService } from "./enquiries.ts";
import { SiteService } from "./sites.ts";
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
import { TeamService } from "./team.ts";
import { MembersService } from "./members.ts";
import { BatchService } from "./batches.ts";
import { TimetableService } from "./timetables/index.ts";
import { BatchLearningService } from "./batch-learning.ts";
import { FeePlans } from "./fees/plans.ts";
import { FeeAccounts } from "./fees/accounts.ts";
import { FeeDesk } from "./fees/desk.ts";
import { FeeDues } from "./fees/dues.ts";
import { ledgerDues } from "./fees/statements.ts";
import { FeeCheques } from "./fees/cheques.ts";
import { FeeCounter } from "./fees/counter.ts";
import { FeeSettings } from "./fees/settings.ts";
import { FeeReceiptPdfs, FeeRefundPdfs } from "./fees/receipt-pdf.ts";
import { FeeRefunds } from "./fees/refunds.ts";
import { FeeScholarships } from "./fees/scholarships.ts";
import { FeeSettlement } from "./fees/settlement.ts";
import { FeeOnline } from "./fees/online.ts";
import { FeeLinks } from "./fees/links.ts";
import { NoticeService } from "./notices.ts";
import { SettingsService } from "./settings.ts";
import { AfterAnswer } from "./after-answer.ts";
import { MessageLanguageService } from "./message-languages.ts";
import { Reminders } from "../messages/reminders.ts";
import { AbsenceAlerts } from "../messages/absence-alerts.ts";
import { FeeReminders } from "../messages/fee-reminders.ts";
import { FeeMandates } from "./fees/mandates.ts";
import { FeeMandateDebits } from "./fees/mandate-debits.ts";
import { AttendancePolicyService } from "./attendance-policies.ts";
import { AttendanceReportService } from "./attendance-reports.ts";
import { createMessaging, type MessagingServices } from "./wiring/messaging.ts";
import { createAccounts, type AccountServices } from "./wiring/accounts.ts";
import { createMoney, type MoneyServices } from "./wiring/money.ts";
import { createMockTests, type MockTestServices } from "./wiring/mock-tests.ts";
import { createAttendance, type AttendanceServices } from "./wiring/attendance.ts";
import { FamilyService } from "./families/index.ts";
import { FamilyInvitations } from "./families/invitations.ts";
import { repeat } from "../runtime/repeat.ts";

/**
 * Domain services shared by the API routers and the page loaders. Each feature's own are made in
 * its wiring module (./wiring/); those that several features share are made here.
 */
export interface Services extends MessagingServices, AccountServices, MoneyServices, MockTestServices {
  /** Work a request causes after its answer (what it would tell by its time). */
  afterAnswer: AfterAnswer;
  tenants: TenantDirectory;
  reminders: Reminders;
  /** Closes finished classes' registers and tells absentees (run by the reminders' clock). */
  absenceAlerts: AbsenceAlerts;
  attendancePolicies: AttendancePolicyService;
  attendanceReports: AttendanceReportService;
  rateLimiter: RateLimiter;
  storage: Storage;
  business: BusinessService;
  messageLanguages: MessageLanguageService;
  enquiries: EnquiryService;
  sites: SiteService;
  domains: DomainService;
  content: ContentService;
  delivery: DeliveryService;
  sales: SalesService;
  seminar: SeminarService;
  centers: CenterAdminService;
  adminFeed: AdminFeedService;
  businessFigures: BusinessFiguresService;
  catalog: CatalogService;
  team: TeamService;
  members: MembersService;
  batches: BatchService;
  timetables: TimetableService;
  batchLearning: BatchLearningService;
  feePlans: FeePlans;
  feeAccounts: FeeAccounts;
  feeDesk: FeeDesk;
  /** Dues at a glance: collections, defaulters, outstanding (issue 42 §5). */
  feeDues: FeeDues;
  /** Reminders before, on and after each due (run by the reminders' clock) and the one-click one. */
  feeReminders: FeeReminders;
  feeMandates: FeeMandates;
  feeMandateDebits: FeeMandateDebits;
  feeCheques: FeeCheques;
  /** The front desk's one way to take money: cheques and DDs through the cheque desk. */
  feeCounter: FeeCounter;
  feeSettings: FeeSettings;
  feeReceiptPdfs: FeeReceiptPdfs;
  feeRefunds: FeeRefunds;
  feeRefundPdfs: FeeRefundPdfs;
  feeScholarships: FeeScholarships;
  feeOnline: FeeOnline;
  feeLinks: FeeLinks;
  notices: NoticeService;
  settings: SettingsService;
  attendance: AttendanceServices;
  /** Parents' links to their children, once made (decision 0047). */
  families: FamilyService;
  /** Parents' invitations and their consent answers. */
  familyInvitations: FamilyInvitations;
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
  // The signed-in reads every page asks for, kept in memory until the database announces a change.
  const reads = new ReadCaches(database);
  const messaging = createMessaging(env, database, logger);
  const { links, messages } = messaging;
  const afterAnswer = new AfterAnswer(logger.child({ component: "after-answer" }));
  const accounts = createAccounts(database, messaging, { rateLimiter, reads, afterAnswer, storage });
  const tenants = new TenantDirectory(database, {
    platformHosts: env.PLATFORM_HOSTS,
    platformDomain: env.PLATFORM_DOMAIN,
    cacheSize: env.HOST_CACHE_ENTRIES,
  });
  const sites = new SiteService(database, tenants, env.SITE_CACHE_MB * 1024 * 1024);
  const catalogChanged = (centerId: string | null) => sites.catalogChanged(centerId);
  const content = new ContentService(
    db,
    storage,
    { pdf: env.MAX_PDF_BYTES, video: env.MAX_VIDEO_BYTES, image: env.MAX_IMAGE_BYTES },
    reads,
    catalogChanged,
    // Uploads are checked by the stamping that students' copies get (made below).
    (fileKey): Promise<void> => delivery.checkStampable(fileKey),
  );
  const delivery = new DeliveryService(db, storage, (id) => content.forFile(id), {
    logger: logger.child({ component: "delivery" }),
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
  const money = createMoney(env, database, logger, messaging, {
    tenants,
    rateLimiter,
    notices,
    domains,
    delivery,
    reads,
  });
  const members = new MembersService({ db, rateLimiter, reads, catalogChanged, messages, links });
  const team = new TeamService({ db, reads, catalogChanged, members });
  const absenceAlerts = new AbsenceAlerts({ db, messages });
  const attendancePolicies = new AttendancePolicyService({ db });
  const attendanceReports = new AttendanceReportService({ db, policies: attendancePolicies });
  const feePlans = new FeePlans({ db });
  const feeAccounts = new FeeAccounts({ db, plans: feePlans });
  const feeReminders = new FeeReminders({ db, messages, links, ledger: ledgerDues });
  const feeDesk = new FeeDesk({ db });
  const feeCheques = new FeeCheques({ db, desk: feeDesk });
  const feeSettlement = new FeeSettlement({ desk: feeDesk, payments: money.payments, logger });
  const feeMandates = new FeeMandates({ db, payments: money.payments, logger });
  const feeMandateDebits = new FeeMandateDebits({
    db,
    payments: money.payments,
    orders: money.orderDesk,
    messages,
    links,
    logger,
  });
  const feeOnline = new FeeOnline({
    db,
    payments: money.payments,
    orders: money.orderDesk,
    desk: feeDesk,
    settlement: feeSettlement,
    debits: feeMandateDebits,
  });
  const feeLinks = new FeeLinks({ db, payments: money.payments, settlement: feeSettlement, messages, logger });
  money.payments.completion.register(feeOnline.orderKind);
  money.payments.links.register(feeLinks.handler);
  money.payments.mandates.register(feeMandates.events);
  return {
    ...messaging,
    ...accounts,
    ...money,
    ...createMockTests(db, logger, storage, messaging, { team, sites }),
    afterAnswer,
    tenants,
    members,
    batches: new BatchService({ db, fees: feeAccounts }),
    timetables: new TimetableService({ db, links }),
    batchLearning: new BatchLearningService(db, delivery),
    reminders: new Reminders({ db, messages, links, absences: absenceAlerts, fees: feeReminders }),
    absenceAlerts,
    attendancePolicies,
    attendanceReports,
    feePlans,
    feeAccounts,
    feeDesk,
    feeDues: new FeeDues({ db }),
    feeReminders,
    feeCheques,
    feeCounter: new FeeCounter({ desk: feeDesk, cheques: feeCheques }),
    feeSettings: new FeeSettings({ db }),
    feeReceiptPdfs: new FeeReceiptPdfs({ db }),
    feeRefunds: new FeeRefunds({ db, payments: money.payments, desk: feeDesk, mandates: feeMandates, logger }),
    feeRefundPdfs: new FeeRefundPdfs({ db }),
    feeScholarships: new FeeScholarships({ db, desk: feeDesk, plans: feePlans }),
    feeOnline,
    feeLinks,
    feeMandates,
    feeMandateDebits,
    rateLimiter,
    storage,
    domains,
    business: new BusinessService(db),
    messageLanguages: new MessageLanguageService(db),
    enquiries: new EnquiryService(db, messages, links),
    sites,
    content,
    delivery,
    sales: new SalesService(db),
    seminar: new SeminarService(db, rateLimiter, messages),
    centers: new CenterAdminService(db, tenants, domains, (ids) => money.refunds.forCenters(ids)),
    adminFeed: new AdminFeedService(db, reads),
    businessFigures: new BusinessFiguresService(db),
    catalog: new CatalogService(db, delivery, (centerId) => sites.catalogVersion(centerId)),
    team,
    notices,
    settings: new SettingsService(db, env, database),
    attendance: createAttendance(db, links),
    families: new FamilyService({ db, attendanceReports, feeAccounts }),
    familyInvitations: new FamilyInvitations({ db, messages, links, rateLimiter, phones: accounts.phones }),
  };
}

function storageCleanupLogger(logger: Logger) {
  return (error: unknown) =>
    logger.warn("could not abort an unfinished upload in object storage", { error: (error as Error).message });
}

/**
 * Periodic clean-up of rows that can no longer matter (on the platform's scope). Started on the
 * leading instance (server/db/leadership.ts); running it on more would do no harm, only the work twice.
 */
export function startHousekeeping(services: Services, logger: Logger, everyMs = 60 * 60 * 1000): () => void {
  return repeat(
    async () => {
      await services.sessions.purgeExpired();
      await services.rateLimiter.purgeOlderThan(24 * 60 * 60 * 1000);
      // Tells owners and admins of trials that ended unpaid (their sites went offline at the end, on read).
      await services.trials.announceEnded();
    },
    everyMs,
    (error) => logger.warn("housekeeping failed", { error }),
  );
}
