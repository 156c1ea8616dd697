import { useRouteLoaderData } from "react-router";
import { MARKETING_LAYOUT_ID } from "~/lib/seo";
import type { PlatformContacts } from "#common/platform-contacts.ts";

const NONE: PlatformContacts = { email: null, phone: null, chatUrl: null, legalName: null, address: null };

/** The platform's contacts as Platform Settings give them (the marketing layout loads them). */
export function usePlatformContacts(): PlatformContacts {
  const layout = useRouteLoaderData(MARKETING_LAYOUT_ID) as { contacts?: PlatformContacts } | undefined;
  return layout?.contacts ?? NONE;
}
