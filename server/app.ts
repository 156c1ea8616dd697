import type { Context, Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { limitBody } from "./middleware/body-limit.ts";
import { metrics } from "./runtime/metrics.ts";
import { securityHeaders } from "./middleware/security-headers.ts";
import { compressAnswers } from "./middleware/compress.ts";
import { timingSafeEqualText } from "./auth/tokens.ts";
import type { AppDeps, AppEnv } from "./middleware/types.ts";
import { requestLog } from "./middleware/request-log.ts";
import { hostRequired, tenant } from "./middleware/tenant.ts";
import { errorBody, HttpError } from "./http/errors.ts";
import { isDatabaseUnavailable } from "./db/errors.ts";
import { createApi, isUploadRequest } from "./api/index.ts";
import { session } from "./middleware/session.ts";
import { csrf } from "./middleware/csrf.ts";
import { requester } from "./middleware/requester.ts";
import { mediaMimeOf } from "./services/media.ts";
import { questionImageServedOn } from "./services/mock-tests/question-images.ts";
import { AVATAR_MAX_BYTES } from "./api/auth.ts";
import { QUESTION_ARCHIVE_LIMITS } from "./services/mock-tests/question-archive.ts";
import { mountTenantSiteEarly, mountTenantSiteForms } from "./pages/tenant-site.ts";
import { mountPaymentSandbox } from "./pages/payment-sandbox.ts";
import { mountMessageSandbox } from "./pages/sandbox-outbox.ts";
import { mountUnsubscribe } from "./pages/unsubscribe.ts";
import { domainsRouter, mountDomainProof } from "./api/domains.ts";
import { refuseUnstorableAddresses } from "./middleware/unstorable-address.ts";
import { pageMethods } from "./middleware/page-methods.ts";
import { KEPT_PATHS, keptPages } from "./pages/kept-pages.ts";
import { buildFileCaching, etagMatches, personalAnswers } from "./middleware/caching.ts";

/** Where the production build's browser files are, as React Router's static handler reads them. */
const BUILD_CLIENT = "build/client";

const JSON_BODY_LIMIT = 1024 * 1024;
/** Pages whose form uploads a profile photo. */
const PHOTO_FORM_PAGES = new Set([
  "/profile",
  "/creator/account",
  "/student/account",
  "/business/account",
  "/business/site",
]);

/** The Tests area's question bank page, whose form imports a question file (as large as the API's). */
const QUESTION_FILE_PAGES = new Set(["/creator/tests/questions", "/business/tests/questions"]);

/**
 * What runs before anything else, static assets included: request id and log, security headers,
 * draining refusal, compression, the default Cache-Control of personal answers, addresses whose
 * text cannot be stored, the health probes, host resolution (unknown hosts end here), institutes'
 * home pages, the platform's kept pages, caching headers and 304s of the build's files, and the API.
 */
export function mountEarly(app: Hono<AppEnv>, deps: AppDeps): void {
  // One error answer for everything below, the API included.
  app.onError((error, c) => {
    if (error instanceof HttpError) {
      for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
      return c.json(errorBody(error.message, error.extra), error.status);
    }
    const log = c.get("log") ?? deps.logger;
    if (isDatabaseUnavailable(error)) {
      log.warn("database unavailable", { error: error.message });
      c.header("Retry-After", "5");
      return c.json(errorBody("Service temporarily unavailable. Please try again shortly."), 503);
    }
    log.error("unhandled error", { error });
    return c.json(errorBody("Something went wrong. Please try again."), 500);
  });

  app.use(...requestLog(deps.logger));
  app.use(
    ...securityHeaders({
      trustProxy: deps.env.TRUST_PROXY,
      realRazorpay: () => deps.services.payments.config.mode === "razorpay",
      // Vite's development server injects its own inline scripts; production gets the strict policy.
      csp: deps.env.NODE_ENV !== "development",
    }),
  );
  app.use(async (c, next) => {
    if (deps.draining) {
      c.header("Connection", "close");
      return c.json(errorBody("The server is restarting. Please try again."), 503);
    }
    await next();
  });
  app.use(compressAnswers());
  app.use(personalAnswers());
  app.use(refuseUnstorableAddresses());
  app.get("/healthz", (c) => c.json({ status: "ok" }));
  app.get("/metrics", async (c) => {
    const token = deps.env.METRICS_TOKEN;
    // Without a configured token the endpoint does not exist; with one, only its holder may read.
    if (!token) return c.notFound();
    if (!timingSafeEqualText(c.req.header("authorization") ?? "", `Bearer ${token}`))
      return c.text("Unauthorized", 401);
    return c.text(await metrics.render(), 200, { "Content-Type": metrics.contentType, "Cache-Control": "no-store" });
  });
  app.get("/readyz", async (c) => {
    try {
      await withTimeout(deps.database.ping(), 2000);
      return c.json({ status: "ready", database: "ok" });
    } catch {
      return c.json({ status: "unavailable", database: "unreachable" }, 503);
    }
  });
  // A request naming no usable host ends here: it is never taken for the platform.
  app.use(hostRequired(deps.env.TRUST_PROXY));
  // Answered on any named host, before host resolution: the sandboxes (the SDK calls the payment
  // one on 127.0.0.1), Caddy's certificate check (it asks with the app's internal address as
  // Host) and the HTTP proof of a domain that is not bound yet.
  mountMessageSandbox(app, deps);
  mountPaymentSandbox(app, deps);
  const domains = domainsRouter(deps);
  app.route("/api/domains", domains);
  mountDomainProof(app, deps);
  // Host resolution comes before static files, so an institute's home page (the hot path) is
  // answered from memory without touching the disk, and unknown hosts get nothing at all.
  app.use(tenant(deps.services.tenants, deps.env.TRUST_PROXY));

  // Institutes' home pages are the same for every visitor: answered before any session work.
  mountTenantSiteEarly(app, deps);
  // So are the platform's public pages for visitors who are not signed in: kept as bytes
  // (not in development, where the pages change as their code is edited).
  if (deps.env.NODE_ENV !== "development") app.on(["GET", "HEAD"], [...KEPT_PATHS], keptPages(deps));
  // The build's files (Vite serves them in development): Cache-Control, ETag and 304.
  if (deps.env.NODE_ENV !== "development") app.use(buildFileCaching(BUILD_CLIENT));

  // The API is answered here, before the static-file handlers React Router's server adds next,
  // which would otherwise look on disk for every API path first.
  app.use("/api/*", ...requestGuards(deps));
  const { api, methodsAt } = createApi(deps, { "/domains": domains });
  app.route("/api", api);
  app.all("/api/*", (c) => {
    // A path that exists, asked with a method it does not have.
    const allowed = methodsAt(c.req.path.slice("/api".length));
    if (allowed.length === 0 || allowed.includes(c.req.method)) return c.json(errorBody("Not found"), 404);
    c.header("Allow", allowed.join(", "));
    return c.json(errorBody(`${c.req.method} is not allowed here. Allowed: ${allowed.join(", ")}.`), 405);
  });
}

/** Identity (and who asks, for the messages it writes), CSRF and body limits: what every request that can read or change data passes. */
function requestGuards(deps: AppDeps) {
  const tooLarge = (c: Context) => c.json(errorBody("The request body is too large."), 413);
  const jsonLimit = limitBody(JSON_BODY_LIMIT, tooLarge);
  const photoFormLimit = limitBody(AVATAR_MAX_BYTES + 64 * 1024, tooLarge);
  const questionFileLimit = limitBody(QUESTION_ARCHIVE_LIMITS.maxBytes + 64 * 1024, tooLarge);
  return [
    session(deps.services.sessions, deps.env.TRUST_PROXY),
    requester(deps.env.TRUST_PROXY),
    csrf(deps.env.TRUST_PROXY),
    createMiddleware<AppEnv>(async (c, next) => {
      if (c.req.method === "GET" || c.req.method === "HEAD") return next();
      // API upload endpoints set their own, larger limits; pages that take a photo or a question file allow one.
      if (isUploadRequest(c.req.method, c.req.path)) return next();
      const page = c.req.path.replace(/\.data$/, "");
      if (PHOTO_FORM_PAGES.has(page)) return photoFormLimit(c, next);
      return (QUESTION_FILE_PAGES.has(page) ? questionFileLimit : jsonLimit)(c, next);
    }),
  ] as const;
}

/** Sessions, CSRF and body limits for the pages, the enquiry form and media; the pages' methods; React Router follows. */
export function mountPlatform(app: Hono<AppEnv>, deps: AppDeps): void {
  app.use(...requestGuards(deps));
  mountTenantSiteForms(app, deps);
  mountUnsubscribe(app, deps);
  app.get("/media/*", async (c) => {
    const key = c.req.path.slice("/media/".length);
    const site = c.get("site");
    // A question's figure is served on its own institute's domain, not on another's.
    if (!questionImageServedOn(key, site.kind === "tenant" ? site.center.id : null))
      return c.json(errorBody("Not found"), 404);
    // Keys are never reused (a new upload gets a new key), so the key is the object's tag.
    const etag = `"${key.replace(/[^\w./-]/g, "")}"`;
    const caching = { ETag: etag, "Cache-Control": "public, max-age=31536000, immutable" };
    if (etagMatches(c.req.header("if-none-match"), etag) && (await deps.services.media.exists(key)))
      return c.body(null, 304, caching);
    const object = await deps.services.media.open(key);
    if (!object) return c.json(errorBody("Not found"), 404);
    return c.body(object.body, 200, {
      "Content-Type": mediaMimeOf(key),
      "Content-Length": String(object.size),
      ...caching,
      "X-Content-Type-Options": "nosniff",
    });
  });
  app.use(pageMethods(isUploadRequest));
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("timeout")), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
