import type { RouterContextProvider } from "react-router";
import { toPlanJson } from "../../server/services/plans.ts";
import { getRequestContext } from "./context.server";
import type { ActivityItem, CenterStats, Growth, RoleStats, TestStats } from "#common/admin-feed.ts";

const ZERO: RoleStats = { collections: { businesses: 0, students: 0, creators: 0 } };
const NO_CENTERS: CenterStats = { paid: 0, trials: 0, lapsed: 0 };
const NO_TESTS: TestStats = { published: 0, attempts: 0, submitted: 0 };

/**
 * The overview's data. Platform figures and events are for admins only (the same rule as
 * GET /api/admin/role-stats): anyone else gets zeros and no events. Plans are public anyway.
 */
export async function loadOverview(context: Readonly<RouterContextProvider>) {
  const { services, auth } = getRequestContext(context);
  const isAdmin = auth?.user.role === "admin";
  const plans = (await services.plans.listAll()).map(toPlanJson).filter((p) => isAdmin || p.isActive);
  if (!isAdmin)
    return {
      isAdmin,
      stats: ZERO,
      centers: NO_CENTERS,
      tests: NO_TESTS,
      growth: null as Growth | null,
      activity: [] as ActivityItem[],
      plans,
    };
  const [stats, centers, tests, growth, activity] = await Promise.all([
    services.adminFeed.roleStats(),
    services.adminFeed.centerStats(),
    services.adminFeed.testStats(),
    services.adminFeed.growth(),
    services.adminFeed.recentActivity(10),
  ]);
  return { isAdmin, stats, centers, tests, growth: growth as Growth | null, activity, plans };
}
