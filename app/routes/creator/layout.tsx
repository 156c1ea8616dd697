import { Outlet } from "react-router";
import { BarChart3, CalendarDays, ClipboardCheck, FileStack, LayoutDashboard, Upload, UserRound } from "lucide-react";
import type { Route } from "./+types/layout";
import { areaViewer } from "~/lib/area.server";
import { creatorArea, loadCreatorDesk } from "~/lib/creator.server";
import { refusedCreatorAction } from "~/lib/creator-pages";
import { roleSwitcher } from "~/lib/memberships.server";
import { RoleSwitcher } from "~/components/role-switcher";
import { AreaShell, SidebarBrand, type NavGroup } from "~/components/shell/area-shell";
import { LogoMark } from "~/components/shell/logo";
import { useRootData } from "~/root";

// Creator accounts, and owners, creators and teachers of an institute; each page as the policy allows.
export const middleware: Route.MiddlewareFunction[] = [creatorArea];

export async function loader({ context, request }: Route.LoaderArgs) {
  const { may, desk } = await loadCreatorDesk(context, request);
  return {
    viewer: areaViewer(context),
    // The pages the person's role where they work does not allow: left out of the navigation.
    closed: NAV.flatMap((group) => group.items)
      .map((item) => item.to)
      .filter((to) => refusedCreatorAction(to, may) !== null),
    switcher: await roleSwitcher(context, request, "creator", desk?.id ?? null),
  };
}

const NAV: NavGroup[] = [
  {
    items: [
      { to: "/creator", label: "Dashboard", icon: LayoutDashboard, end: true },
      { to: "/creator/upload", label: "Upload", icon: Upload },
      { to: "/creator/contents", label: "Contents", icon: FileStack },
      { to: "/creator/sales", label: "Sales", icon: BarChart3 },
      { to: "/creator/tests", label: "Tests", icon: ClipboardCheck },
      { to: "/creator/week", label: "My Week", icon: CalendarDays },
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
      nav={NAV.map((group) => ({
        ...group,
        items: group.items.filter((item) => !loaderData.closed.includes(item.to)),
      }))}
      viewer={loaderData.viewer}
      initiallyCollapsed={root?.sidebarCollapsed ?? false}
      headerActions={loaderData.switcher ? <RoleSwitcher {...loaderData.switcher} /> : undefined}
    >
      <Outlet />
    </AreaShell>
  );
}
