import { profileData as centerProfile } from "../../server/services/sites.ts";
import type { SiteData } from "../../tenants/types";

/** Sample site data for an institute that does not exist yet (template previews before a purchase). */
export function sampleSiteData(instituteName: string): SiteData {
  return {
    ...centerProfile({ instituteName, siteProfile: {} }),
    catalog: { live: [], courses: [], materials: [], tests: [] },
  };
}
