import { Outlet } from "react-router";
import { BarChart3, ClipboardCheck, FileStack, LayoutDashboard, Upload, UserRound } from "lucide-react";
import type { Route } from "./+types/layout";
import { requireRoles } from "~/lib/session.server";
import { areaViewer } from "~/lib/area.server";
import { AreaShell, SidebarBrand, type NavGroup } from "~/components/shell/area-shell";
import { LogoMark } from "~/components/shell/logo";
import { useRootData } from "~/root";

export const middleware: Route.MiddlewareFunction[] = [requireRoles(["creator"])];

export function loader({ context }: Route.LoaderArgs) {
  return { viewer: areaViewer(context) };
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
    >
      <Outlet />
    </AreaShell>
  );
}
