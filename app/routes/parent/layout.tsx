import { Outlet } from "react-router";
import { CalendarDays, ShieldCheck, Users, Wallet } from "lucide-react";
import type { Route } from "./+types/layout";
import { requireViewer } from "~/lib/session.server";
import { areaViewer } from "~/lib/area.server";
import { roleSwitcher } from "~/lib/memberships.server";
import { myChildren } from "~/lib/parent/area.server";
import { RoleSwitcher } from "~/components/role-switcher";
import { AreaShell, SidebarBrand, type NavGroup } from "~/components/shell/area-shell";
import { SiteMark } from "~/components/shell/site-mark";
import { EmptyState } from "~/components/ui/empty-state";
import { useRootData } from "~/root";
import { PARENT_TEXTS } from "#common/parent-area.ts";

/** Any signed-in account may open the area: what it shows is its own children, through their active links. */
export const middleware: Route.MiddlewareFunction[] = [
  ({ context, request }) => {
    requireViewer(context, request);
  },
];

export async function loader({ context, request }: Route.LoaderArgs) {
  const children = await myChildren(context);
  return {
    viewer: areaViewer(context),
    switcher: await roleSwitcher(context, request, "parent"),
    hasChildren: children.length > 0,
  };
}

const NAV: NavGroup[] = [
  {
    items: [
      { to: "/parent", label: "My children", icon: Users, end: true },
      { to: "/parent/week", label: "Week", icon: CalendarDays },
      { to: "/parent/fees", label: "Fees", icon: Wallet },
      { to: "/parent/consent", label: "Consent & data", icon: ShieldCheck },
    ],
  },
];

export default function ParentLayout({ loaderData }: Route.ComponentProps) {
  const root = useRootData();
  const site = root?.site;
  const name = site?.kind === "tenant" ? site.instituteName : "Parent";
  return (
    <AreaShell
      title={site?.kind === "tenant" ? `${site.instituteName} · Parent` : "Parent"}
      brand={<SidebarBrand to="/parent" name={name} mark={<SiteMark />} />}
      nav={NAV}
      viewer={loaderData.viewer}
      initiallyCollapsed={root?.sidebarCollapsed ?? false}
      headerActions={loaderData.switcher ? <RoleSwitcher {...loaderData.switcher} /> : undefined}
    >
      {loaderData.hasChildren ? (
        <Outlet />
      ) : (
        <div className="mx-auto grid max-w-3xl grid-cols-1 gap-6">
          <EmptyState icon={<Users />} title={PARENT_TEXTS.noChildren} />
        </div>
      )}
    </AreaShell>
  );
}
