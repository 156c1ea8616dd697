import { data, redirect, type RouterContextProvider } from "react-router";
import { HttpError } from "../../../server/http/errors.ts";
import type { Reader } from "../../../server/services/content-access.ts";
import type { InputIssue } from "#common/validation/storable.ts";
import { getRequestContext } from "../context.server";
import { getViewer } from "../session.server";
import { loadCreatorDesk } from "../creator.server";
import { loadBusinessCenter, notAllowed } from "../business.server";
import { flashToastCookie } from "../toast.server";
import { testsPaths } from "./area-paths";
import type { FlashToast } from "../toast";
import type { BankChoice } from "./banks";

/**
 * The Tests area's pages run under the creator layout and the business layout, whose middleware
 * has already checked the person may open them. Under /creator they work on the institute chosen
 * in the header, where the policy must allow tests.write (`loadCreatorDesk`: a teacher's and a
 * creator's alike), or a creator's own; under /business, on the institute the business area shows
 * (`businessTestsReader`).
 */
export async function testsAreaContext(context: Readonly<RouterContextProvider>, request: Request) {
  const viewer = getViewer(context)!;
  const paths = testsPaths(new URL(request.url).pathname);
  const reader: Reader = paths.base.startsWith("/creator")
    ? (await loadCreatorDesk(context, request)).creator
    : await businessTestsReader(context, request);
  const { services, site } = getRequestContext(context);
  return {
    services,
    site,
    viewer,
    reader,
    paths,
  };
}

/**
 * The business area's Tests pages work on the institute the area shows (`loadBusinessCenter`: the
 * person's pick, the institute's domain, the header's choice, else the newest), its desk (decision
 * 0039): its tests, series and bank alone, another institute's rows not found. The policy decides
 * tests.write there (owners have it; staff do not: 403 in its words; BUSINESS_PAGES already closes
 * the pages to them). A business account before its first institute has no desk: what its roles
 * reach, as before (its own tests).
 */
export async function businessTestsReader(context: Readonly<RouterContextProvider>, request: Request): Promise<Reader> {
  const { viewer, center, may } = await loadBusinessCenter(context, request);
  if (!center) return { id: viewer.id, role: viewer.role };
  if (!may("tests.write")) throw data(notAllowed("tests.write"), { status: 403 });
  return { id: viewer.id, role: viewer.role, desk: center.id };
}

/** The banks the person may open, for the pages' selects (their own first, on the platform). */
export async function bankChoices(services: Awaited<ReturnType<typeof testsAreaContext>>["services"], reader: Reader) {
  const banks = await services.testsArea.banks(reader);
  return banks.map((b): BankChoice => ({ value: b._id ?? "own", name: b.name }));
}

/** A bank posted by a form ("" or missing: the service's default). */
export function postedBank(form: FormData): string | undefined {
  const value = form.get("bank");
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A refused action: the message, the named fields, and anything else the service said (an import's bad rows). */
export interface TestsAreaFailure {
  ok: false;
  error: string;
  issues: InputIssue[];
  problems: { where: string; message: string }[];
}

/** Runs a service call for an action; its refusals in the product's words come back to the page. */
export async function refusalOr<T>(
  run: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; response: ReturnType<typeof data<TestsAreaFailure>> }> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const extra = error.extra as { issues?: InputIssue[]; problems?: TestsAreaFailure["problems"] };
    return {
      ok: false,
      response: data<TestsAreaFailure>(
        { ok: false, error: error.message, issues: extra.issues ?? [], problems: extra.problems ?? [] },
        { status: error.status },
      ),
    };
  }
}

export function refused(error: string, status = 400) {
  return data<TestsAreaFailure>({ ok: false, error, issues: [], problems: [] }, { status });
}

/** After a change: back to a page with a toast (works without JavaScript). */
export function redirectWithToast(to: string, toast: FlashToast): never {
  throw redirect(to, { headers: { "Set-Cookie": flashToastCookie(toast) } });
}

/** A loader's 404 from a service becomes the error page. */
export async function orNotFound<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HttpError) throw data({ message: error.message }, { status: error.status });
    throw error;
  }
}
