import { Outlet } from "react-router";
import { BarChart3, ClipboardCheck, FileStack, LayoutDashboard, Upload, UserRound } from "lucide-react";
import type { Route } from "./+types/layout";
import { requireRoles } from "~/lib/session.server";
import { areaViewer } from "~/lib/area.server";
import { roleSwitcher } from "~/lib/memberships.server";
import { RoleSwitcher } from "~/components/role-switcher";
import { AreaShell, SidebarBrand, type NavGroup } from "~/components/shell/area-shell";
import { LogoMark } from "~/components/shell/logo";
import { useRootData } from "~/root";

export const middleware: Route.MiddlewareFunction[] = [requireRoles(["creator"])];

export async function loader({ context, request }: Route.LoaderArgs) {
  return { viewer: areaViewer(context), switcher: await roleSwitcher(context, request, "creator") };
}

const NAV: NavGroup[] = [
  {
    items: [
      { to: "/creator", label: "Dashboard", icon: LayoutDashboard, end: true },
      { to: "/creator/upload", label: "Upload", icon: Upload },
      { to: "/creator/contents", label: "Contents", icon: FileStack },
      { to: "/creator/sales", label: "Sales", icon: BarChart3 },
      { to: "/creator/tests", label: "Tests", icon: ClipboardCheck },
      { to: "/creator/account", label: "Account", icon: UserRound },
    ],
  },
];

export default function CreatorLayout({ loaderData }: Route.ComponentProps) {
  const root = useRootData();
  return (
    <AreaShell
      title="Creator Studio"
      brand={<SidebarBrand to="/creator" name="Creator Studio" mark={<LogoMark />} />}
      nav={NAV}
      viewer={loaderData.viewer}
      initiallyCollapsed={root?.sidebarCollapsed ?? false}
      headerActions={loaderData.switcher ? <RoleSwitcher {...loaderData.switcher} /> : undefined}
    >
      <Outlet />
    </AreaShell>
  );
}
