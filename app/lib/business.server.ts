import { data, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { hasActivePlan, type OwnedCenter } from "../../server/services/business.ts";
import { checkDomain } from "../../server/services/domain-check.ts";
import type { PlatformSettingsValues } from "../../server/services/settings.ts";
import { readCookie } from "../../server/auth/cookies.ts";
import { getRequestContext } from "./context.server";
import { getViewer } from "./session.server";
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

/**
 * The institute the business area shows: on an institute's domain, that institute (its owner
 * only, else 403); on the platform, the owner's pick (cookie) or their newest. Null before any purchase.
 */
export async function loadBusinessCenter(context: Readonly<RouterContextProvider>, request: Request) {
  const viewer = getViewer(context)!;
  const { services, site } = getRequestContext(context);
  if (site.kind === "tenant" && site.center.ownerId !== viewer.id) {
    throw data("This business area belongs to the institute's owner.", { status: 403 });
  }
  const center = await services.business.currentCenter(viewer.id, site, preferredCenterId(request));
  return { viewer, center, services, site };
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

/** Business pages on an institute's own domain are for that institute's owner alone. */
export const tenantOwnerOnly: MiddlewareFunction<Response> = ({ context }) => {
  const { site, auth } = getRequestContext(context);
  if (site.kind === "tenant" && auth && site.center.ownerId !== auth.user.id) {
    throw data("This business area belongs to the institute's owner.", { status: 403 });
  }
};

/**
 * The institutes a business owns, for the switcher in the business area's header; `?center=<id>`
 * on any business page picks one (remembered in a cookie) and returns to the page without it.
 */
export async function businessCenters(context: Readonly<RouterContextProvider>, request: Request) {
  const viewer = getViewer(context)!;
  const { services, site } = getRequestContext(context);
  if (site.kind === "tenant") return { centers: [], currentId: site.center.id };
  const url = pageUrl(request);
  const picked = url.searchParams.get("center");
  const owned = await services.business.ownedCenters(viewer.id);
  if (picked && owned.some((c) => c.id === picked)) {
    url.searchParams.delete("center");
    throw redirect(safeRedirect(`${url.pathname}${url.search}`, "/business"), {
      headers: { "Set-Cookie": `${CENTER_COOKIE}=${picked}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly` },
    });
  }
  const current = await services.business.currentCenter(viewer.id, site, preferredCenterId(request));
  return { centers: owned.map((c) => ({ id: c.id, name: c.instituteName })), currentId: current?.id ?? null };
}
