import { data, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { hasActivePlan, type OwnedCenter } from "../../server/services/business.ts";
import { checkDomain } from "../../server/services/domain-check.ts";
import type { PlatformSettingsValues } from "../../server/services/settings.ts";
import { readCookie } from "../../server/auth/cookies.ts";
import { getRequestContext } from "./context.server";
import { getViewer, requireViewer } from "./session.server";
import { can, mayGrant } from "../../server/auth/permissions.ts";
import { notAllowed } from "../../server/api/member-guard.ts";
import { BUSINESS_PAGES, refusedAction } from "./business-pages";
import { CHOSEN_MEMBERSHIP_COOKIE, type Action, type MemberRole } from "#common/memberships.ts";

export { notAllowed };
import { pageUrl } from "./page-url";
import { safeRedirect } from "./redirects";

export const CENTER_COOKIE = "pathshala_center";

export function preferredCenterId(request: Request): string | null {
  return readCookie(request.headers.get("cookie"), CENTER_COOKIE) ?? null;
}

export interface BusinessCenterSummary {
  id: string;
  instituteName: string;
  domain: string | null;
  templateId: string;
  planName: string | null;
  billing: string | null;
  status: string;
  startsAt: string;
  expiresAt: string | null;
  hasPlan: boolean;
  siteUrl: string | null;
}

export function summarizeCenter(center: OwnedCenter, siteUrl: string | null): BusinessCenterSummary {
  return {
    id: center.id,
    instituteName: center.instituteName,
    domain: center.customDomain,
    templateId: center.templateId,
    planName: center.planName,
    billing: center.billing,
    status: center.status,
    startsAt: center.startsAt.toISOString(),
    expiresAt: center.expiresAt?.toISOString() ?? null,
    hasPlan: hasActivePlan(center),
    siteUrl,
  };
}

const OWNERS_AREA = "This business area belongs to the institute's owner.";

/** The institute chosen in the header's role switcher (`pathshala_as`), checked against the person's roles where used. */
function headerChoice(request: Request): string | null {
  return readCookie(request.headers.get("cookie"), CHOSEN_MEMBERSHIP_COOKIE)?.split(":")[0] || null;
}

/**
 * The institute the business area shows and what the person may do there (issue 40, decision
 * 0039): on an institute's domain, that institute (for those who work there, else 403); on the
 * platform, their pick (cookie), else the one chosen in the header, else the newest where they
 * hold an owner's or a staff role. Null before a business account's first purchase. The page
 * being opened (business-pages.ts) must be one their roles there allow, else 403 in the policy's words.
 */
export async function loadBusinessCenter(context: Readonly<RouterContextProvider>, request: Request) {
  const viewer = getViewer(context)!;
  const { services, site } = getRequestContext(context);
  const center = await services.business.deskCenter(
    viewer.id,
    site,
    preferredCenterId(request) ?? headerChoice(request),
  );
  if (site.kind === "tenant" && !center) throw data(OWNERS_AREA, { status: 403 });
  const membership = center ? await services.members.standing(viewer.id, center.id) : null;
  // A business account before its first plan has no institute yet: its pages show how to get one.
  const may = (action: Action) => !center || can(membership, action);
  const refused = refusedAction(pageUrl(request).pathname, may);
  if (refused) throw data(notAllowed(refused), { status: 403 });
  const grants = (role: MemberRole) => membership !== null && mayGrant(membership, role);
  return { viewer, center, services, site, may, grants };
}

/**
 * The business area's gate (its layout's middleware, and the pages outside the layout): open to
 * whoever holds an owner's or a staff role in an institute, and to a business account before its
 * first institute; everyone else goes to the business sign-in. Then `loadBusinessCenter`'s checks.
 */
export async function openBusinessArea(context: Readonly<RouterContextProvider>, request: Request) {
  const viewer = getViewer(context);
  const { services } = getRequestContext(context);
  // Signed out, or no owner's or staff role anywhere: the business sign-in, which brings them back here.
  if (!viewer || (await services.business.desks(viewer.id)).length === 0) requireViewer(context, request, ["business"]);
  return loadBusinessCenter(context, request);
}

export const businessArea: MiddlewareFunction<Response> = async ({ context, request }) => {
  await openBusinessArea(context, request);
};

/** Which of the business area's pages the person may not open (the navigation leaves them out). */
export function closedPages(may: (action: Action) => boolean): string[] {
  return BUSINESS_PAGES.filter(([path]) => refusedAction(path, may) !== null).map(([path]) => path);
}

/** `host` as a link on the scheme and port this request came in on. */
function hostUrl(host: string, request: Request): string {
  const url = new URL(request.url);
  return `${url.protocol}//${host}${url.port ? `:${url.port}` : ""}/`;
}

/**
 * Where the institute's site can be opened for sure: its working address `{slug}.{PLATFORM_DOMAIN}`
 * (served from the moment the center exists), else its own domain.
 */
export function siteUrlFor(
  center: Pick<OwnedCenter, "customDomain" | "slug">,
  request: Request,
  platformDomain: string,
): string | null {
  const host = platformDomain ? `${center.slug}.${platformDomain}` : center.customDomain;
  return host ? hostUrl(host, request) : null;
}

/**
 * Both addresses of an institute: the working one (always served) and its own domain (served
 * once its DNS points here), with the domain's DNS check to stream.
 */
export function siteAddresses(
  center: Pick<OwnedCenter, "customDomain" | "slug">,
  request: Request,
  platformDomain: string,
  settings: Pick<PlatformSettingsValues, "dnsTargetIp" | "dnsTargetHost">,
) {
  const workingHost = platformDomain ? `${center.slug}.${platformDomain}` : null;
  return {
    workingHost,
    workingUrl: workingHost ? hostUrl(workingHost, request) : null,
    domain: center.customDomain,
    domainUrl: center.customDomain ? hostUrl(center.customDomain, request) : null,
    domainCheck: center.customDomain
      ? checkDomain(center.customDomain, { ip: settings.dnsTargetIp, host: settings.dnsTargetHost })
      : null,
  };
}

/**
 * The setup checklist's real state, and (as a promise, to stream) the DNS check of `domain`: the
 * institute's bound domain, else the one waiting for proof.
 */
export function setupState(
  center: OwnedCenter | null,
  settings: Pick<PlatformSettingsValues, "dnsTargetIp" | "dnsTargetHost">,
  domain: string | null,
) {
  const p = center?.siteProfile ?? {};
  const steps = [
    {
      key: "profile",
      title: "Business profile configuration",
      text: "Tagline, address and programs on your website.",
      done: Boolean(p.tagline && p.address && p.programs?.length),
      to: "/business/site",
    },
    {
      key: "payment",
      title: "Payment setup",
      text: "An active plan keeps your website online.",
      done: hasActivePlan(center),
      to: "/business/subscription-plan",
    },
    {
      key: "branding",
      title: "Branding",
      text: "Your logo or brand colour on every page.",
      done: Boolean(p.logoKey || p.brandColor),
      to: "/business/site",
    },
    {
      key: "contact",
      title: "Contact info",
      text: "The phone and e-mail students reach you on.",
      done: Boolean(p.phone && p.contactEmail),
      to: "/business/site",
    },
  ];
  return {
    steps,
    domain: domain ? checkDomain(domain, { ip: settings.dnsTargetIp, host: settings.dnsTargetHost }) : null,
  };
}

/**
 * The institutes whose business area the person works in, for the switcher in its header;
 * `?center=<id>` on any business page picks one (remembered in a cookie) and returns to the page without it.
 */
export async function businessCenters(context: Readonly<RouterContextProvider>, request: Request) {
  const viewer = getViewer(context)!;
  const { services, site } = getRequestContext(context);
  if (site.kind === "tenant") return { centers: [], currentId: site.center.id };
  const url = pageUrl(request);
  const picked = url.searchParams.get("center");
  const desks = await services.business.desks(viewer.id);
  if (picked && desks.some((c) => c.id === picked)) {
    url.searchParams.delete("center");
    throw redirect(safeRedirect(`${url.pathname}${url.search}`, "/business"), {
      headers: { "Set-Cookie": `${CENTER_COOKIE}=${picked}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly` },
    });
  }
  const current = await services.business.deskCenter(
    viewer.id,
    site,
    preferredCenterId(request) ?? headerChoice(request),
  );
  return { centers: desks.map((c) => ({ id: c.id, name: c.instituteName })), currentId: current?.id ?? null };
}
