import { Outlet } from "react-router";
import {
  GraduationCap,
  CalendarCheck,
  ClipboardCheck,
  CreditCard,
  FileCog,
  FileStack,
  Globe,
  IndianRupee,
  Inbox,
  LayoutDashboard,
  LayoutTemplate,
  LifeBuoy,
  ReceiptText,
  UserRound,
  Users,
  UsersRound,
  Wallet,
} from "lucide-react";
import type { Route } from "./+types/layout";
import { areaViewer } from "~/lib/area.server";
import { roleSwitcher } from "~/lib/memberships.server";
import { RoleSwitcher } from "~/components/role-switcher";
import { businessArea, businessCenters, closedPages, loadBusinessCenter } from "~/lib/business.server";
import { CenterSwitcher } from "~/components/center-switcher";
import { AreaShell, SidebarBrand, type NavGroup } from "~/components/shell/area-shell";
import { LogoMark } from "~/components/shell/logo";
import { useRootData } from "~/root";

// Owners and staff (and a business account before its first institute); each page as its roles there allow.
export const middleware: Route.MiddlewareFunction[] = [businessArea];

export async function loader({ context, request }: Route.LoaderArgs) {
  const centers = await businessCenters(context, request);
  const { may } = await loadBusinessCenter(context, request);
  return {
    viewer: areaViewer(context),
    ...centers,
    // The pages the person's roles in this institute do not allow: left out of the navigation.
    closed: closedPages(may),
    switcher: await roleSwitcher(context, request, "business", centers.currentId),
  };
}

const NAV: NavGroup[] = [
  {
    items: [
      { to: "/business", label: "Dashboard", icon: LayoutDashboard, end: true },
      { to: "/business/account", label: "Profile", icon: UserRound },
      { to: "/business/subscription-plan", label: "Subscription Plan", icon: CreditCard },
      { to: "/business/setup", label: "Setup Details", icon: FileCog },
      { to: "/business/templates", label: "Template", icon: LayoutTemplate },
      { to: "/business/site", label: "Website Details", icon: Globe },
      { to: "/business/content", label: "Website Content", icon: FileStack },
      { to: "/business/team", label: "Team", icon: Users },
      { to: "/business/tests", label: "Tests", icon: ClipboardCheck },
      { to: "/business/leads", label: "Leads", icon: Inbox },
      { to: "/business/students", label: "Students", icon: GraduationCap },
      { to: "/business/batches", label: "Batches", icon: UsersRound },
      { to: "/business/attendance", label: "Attendance", icon: CalendarCheck },
      { to: "/business/fees", label: "Fees", icon: Wallet },
      { to: "/business/payments", label: "Student Payments", icon: IndianRupee },
      { to: "/business/subscription-details", label: "Subscription Details", icon: ReceiptText },
      { to: "/business/contact", label: "Help & Contact", icon: LifeBuoy },
    ],
  },
];

export default function BusinessLayout({ loaderData }: Route.ComponentProps) {
  const root = useRootData();
  return (
    <AreaShell
      title="Business"
      brand={<SidebarBrand to="/business" name="Business" mark={<LogoMark />} />}
      nav={NAV.map((group) => ({ ...group, items: group.items.filter((i) => !loaderData.closed.includes(i.to)) }))}
      viewer={loaderData.viewer}
      displayName={loaderData.viewer.name.trim() || "Business User"}
      initiallyCollapsed={root?.sidebarCollapsed ?? false}
      headerActions={
        <>
          {/* Which of one's own institutes the business area shows; the role switcher moves between roles and areas. */}
          {loaderData.centers.length > 1 && (
            <CenterSwitcher centers={loaderData.centers} currentId={loaderData.currentId} />
          )}
          {loaderData.switcher && onlyOwner(loaderData.switcher.options) === false && (
            <RoleSwitcher {...loaderData.switcher} />
          )}
        </>
      }
    >
      <Outlet />
    </AreaShell>
  );
}

/** An owner of several institutes and nothing else has the Institute switcher alone: the role switcher would repeat it. */
const onlyOwner = (options: { key: string }[]) => options.every((o) => o.key.endsWith(":owner"));
