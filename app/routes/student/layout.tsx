import { Outlet } from "react-router";
import {
  BookOpen,
  CalendarDays,
  CalendarCheck,
  ClipboardList,
  FileText,
  LayoutDashboard,
  MonitorPlay,
  Radio,
  School,
  UserRound,
  Wallet,
} from "lucide-react";
import type { Route } from "./+types/layout";
import { requireRoles } from "~/lib/session.server";
import { areaViewer } from "~/lib/area.server";
import { roleSwitcher } from "~/lib/memberships.server";
import { RoleSwitcher } from "~/components/role-switcher";
import { AreaShell, SidebarBrand, type NavGroup } from "~/components/shell/area-shell";
import { SiteMark } from "~/components/shell/site-mark";
import { useRootData } from "~/root";

// Per the spec, a signed-in person of another role is sent to their own role's sign-in.
export const middleware: Route.MiddlewareFunction[] = [requireRoles(["student"], { wrongRole: "own" })];

export async function loader({ context, request }: Route.LoaderArgs) {
  return { viewer: areaViewer(context), switcher: await roleSwitcher(context, request, "student") };
}

const NAV: NavGroup[] = [
  {
    items: [
      { to: "/student", label: "Dashboard", icon: LayoutDashboard, end: true },
      {
        to: "/student/classroom",
        label: "Class Room",
        icon: School,
        children: [
          { to: "/student/live", label: "Live Classes", icon: Radio },
          { to: "/student/courses", label: "Course List", icon: MonitorPlay },
          { to: "/student/materials", label: "Study Materials", icon: FileText },
        ],
      },
      { to: "/student/week", label: "My Week", icon: CalendarDays },
      { to: "/student/my-courses", label: "My Courses", icon: BookOpen },
      { to: "/student/mock-tests", label: "Mock Tests", icon: ClipboardList },
      { to: "/student/attendance", label: "Attendance", icon: CalendarCheck },
      { to: "/student/fees", label: "Fees", icon: Wallet },
      { to: "/student/account", label: "Account", icon: UserRound },
    ],
  },
];

export default function StudentLayout({ loaderData }: Route.ComponentProps) {
  const root = useRootData();
  const site = root?.site;
  const name = site?.kind === "tenant" ? site.instituteName : "Student";
  return (
    <AreaShell
      title={site?.kind === "tenant" ? `${site.instituteName} · Student` : "Student"}
      brand={<SidebarBrand to="/student" name={name} mark={<SiteMark />} />}
      nav={NAV}
      viewer={loaderData.viewer}
      initiallyCollapsed={root?.sidebarCollapsed ?? false}
      headerActions={loaderData.switcher ? <RoleSwitcher {...loaderData.switcher} /> : undefined}
    >
      <Outlet />
    </AreaShell>
  );
}
