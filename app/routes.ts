import { type RouteConfig, index, layout, prefix, route } from "@react-router/dev/routes";

/** The spec's route table (§2). Creator pages also answer under /dashboard/creator/*. */
const creatorPages = (idPrefix: string) => [
  route("upload", "routes/creator/upload.tsx", { id: `${idPrefix}-upload` }),
  route("contents", "routes/creator/contents.tsx", { id: `${idPrefix}-contents` }),
  route("sales", "routes/creator/sales.tsx", { id: `${idPrefix}-sales` }),
];

/** The Tests area (issue 29): the same pages for a creator and for an institute's owner. */
const testsPages = (idPrefix: string) =>
  prefix("tests", [
    index("routes/mock-tests/list.tsx", { id: `${idPrefix}-tests` }),
    route("questions", "routes/mock-tests/questions.tsx", { id: `${idPrefix}-tests-questions` }),
    route("questions/new", "routes/mock-tests/question.tsx", { id: `${idPrefix}-tests-question-new` }),
    route("questions/:id", "routes/mock-tests/question.tsx", { id: `${idPrefix}-tests-question` }),
    route("new", "routes/mock-tests/builder.tsx", { id: `${idPrefix}-tests-new` }),
    route(":id", "routes/mock-tests/test.tsx", { id: `${idPrefix}-tests-test` }),
    route(":id/edit", "routes/mock-tests/builder.tsx", { id: `${idPrefix}-tests-edit` }),
  ]);

export default [
  layout("routes/marketing/layout.tsx", [
    index("routes/home.tsx"),
    route("pricing", "routes/marketing/pricing.tsx"),
    route("about", "routes/marketing/about.tsx"),
    route("contact", "routes/marketing/contact.tsx"),
    route("invest", "routes/marketing/invest.tsx"),
    route("legal", "routes/marketing/legal.tsx"),
  ]),
  route("pricing/setup", "routes/marketing/pricing-setup.tsx"),
  route("robots.txt", "routes/seo/robots.ts"),
  route("sitemap.xml", "routes/seo/sitemap.ts"),
  route("get-started", "routes/auth/get-started.tsx"),
  route("auth", "routes/auth/auth.tsx"),
  route("login", "routes/auth/login.tsx"),
  route("forgot-password", "routes/auth/forgot-password.tsx"),
  route("reset-password", "routes/auth/reset-password.tsx"),
  route("account/password", "routes/auth/change-password.ts"),
  route("account/phone", "routes/auth/account-phone.ts"),
  route("account/email", "routes/auth/account-email.ts"),
  route("account/billing", "routes/auth/account-billing.ts"),
  route("account/language", "routes/auth/account-language.ts"),
  route("account/parents", "routes/auth/account-parents.ts"),
  route("confirm-email", "routes/auth/confirm-email.tsx"),
  route("login-code", "routes/auth/login-code.tsx"),
  route("logout", "routes/auth/logout.tsx"),
  route("profile", "routes/auth/profile.tsx"),
  route("admin", "routes/launching-soon.tsx"),
  route("catalog", "routes/catalog.tsx"),
  route("invite/:token", "routes/invite.tsx"),
  route("family/:token", "routes/family-invite.tsx"),
  route("switch-role", "routes/switch-role.tsx"),
  // Attendance (issue 41 §3): phone-first pages outside the areas' sidebars.
  route("sessions/:id/register", "routes/attendance/register.tsx"),
  route("sessions/:id/qr", "routes/attendance/qr.tsx"),
  route("sessions/:id/join", "routes/attendance/join.tsx"),
  route("attend", "routes/attendance/attend.tsx"),

  layout("routes/creator/layout.tsx", [
    ...prefix("creator", [
      index("routes/creator/home.tsx"),
      ...creatorPages("creator"),
      route("contents/:id", "routes/creator/content-detail.tsx", { id: "creator-content-detail" }),
      route("account", "routes/creator/account.tsx"),
      route("week", "routes/creator/week.tsx", { id: "creator-week" }),
      ...testsPages("creator"),
    ]),
    ...prefix("dashboard/creator", [
      ...creatorPages("dashboard-creator"),
      route("content/:id", "routes/creator/content-detail.tsx", { id: "dashboard-creator-content-detail" }),
    ]),
  ]),

  layout("routes/student/layout.tsx", [
    route("my-courses", "routes/student/my-courses.tsx", { id: "my-courses" }),
    ...prefix("student", [
      index("routes/student/home.tsx"),
      route("live", "routes/student/live.tsx"),
      route("courses", "routes/student/courses.tsx"),
      route("materials", "routes/student/materials.tsx"),
      route("my-courses", "routes/student/my-courses.tsx", { id: "student-my-courses" }),
      route("mock-tests", "routes/student/mock-tests.tsx"),
      route("week", "routes/student/week.tsx", { id: "student-week" }),
      route("attendance", "routes/student/attendance.tsx"),
      route("mock-tests/attempts/:attemptId/result", "routes/student/mock-test-result.tsx"),
      route("fees", "routes/student/fees.tsx"),
      route("account", "routes/student/account.tsx"),
    ]),
  ]),

  // The parent's area (issue 41, decision 0047): a parent's children, each reached by its link's id.
  layout("routes/parent/layout.tsx", [
    ...prefix("parent", [
      index("routes/parent/home.tsx"),
      route("children/:linkId", "routes/parent/child.tsx"),
      route("week", "routes/parent/week.tsx", { id: "parent-week" }),
      route("fees", "routes/parent/fees.tsx", { id: "parent-fees" }),
      route("consent", "routes/parent/consent.tsx"),
    ]),
  ]),

  // Mock tests (issue 29): a test's instructions and screen take the whole screen, outside the student sidebar.
  route("student/mock-tests/:testId", "routes/student/mock-test.tsx"),

  route("business/website", "routes/business/website.tsx"),
  layout("routes/business/layout.tsx", [
    ...prefix("business", [
      index("routes/business/home.tsx"),
      route("account", "routes/business/account.tsx"),
      route("subscription-plan", "routes/business/subscription-plan.tsx"),
      route("setup", "routes/business/setup.tsx"),
      route("templates", "routes/business/templates.tsx"),
      route("subscription-details", "routes/business/subscription-details.tsx"),
      route("contact", "routes/business/contact.tsx"),
      route("site", "routes/business/site.tsx"),
      route("leads", "routes/business/leads.tsx"),
      route("payments", "routes/business/payments.tsx"),
      route("students", "routes/business/students.tsx"),
      route("batches", "routes/business/batches.tsx"),
      route("batches/:id/timetable", "routes/business/batch-timetable.tsx"),
      route("attendance", "routes/business/attendance.tsx"),
      route("fees", "routes/business/fees.tsx"),
      route("fees/dues", "routes/business/fee-dues.tsx"),
      route("fees/cheques", "routes/business/fee-cheques.tsx"),
      route("fees/settings", "routes/business/fee-settings.tsx"),
      route("team", "routes/business/team.tsx"),
      route("content", "routes/business/content.tsx"),
      ...testsPages("business"),
    ]),
  ]),

  route("dashboard", "routes/dashboard/login.tsx"),
  layout("routes/dashboard/layout.tsx", [
    ...prefix("dashboard", [
      route("overview", "routes/dashboard/overview.tsx"),
      route("centers", "routes/dashboard/centers.tsx"),
      route("centers/create", "routes/dashboard/centers-create.tsx"),
      route("settings", "routes/dashboard/settings.tsx"),
      route("settings/pricing", "routes/dashboard/settings-pricing.tsx"),
      route("settings/platform", "routes/dashboard/settings-platform.tsx"),
      route("bookings", "routes/dashboard/bookings.tsx"),
      route("messages", "routes/dashboard/messages.tsx"),
    ]),
  ]),

  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
