import { Form, Outlet, redirect, type ShouldRevalidateFunctionArgs } from "react-router";
import {
  Building2,
  CalendarDays,
  LayoutDashboard,
  Mail,
  LogOut,
  PlusCircle,
  SlidersHorizontal,
  Tags,
} from "lucide-react";
import type { Route } from "./+types/layout";
import { getViewer } from "~/lib/session.server";
import { pageUrl } from "~/lib/page-url";
import { areaViewer } from "~/lib/area.server";
import { AreaShell, SidebarBrand, type NavGroup } from "~/components/shell/area-shell";
import { LogoMark } from "~/components/shell/logo";
import { useRootData } from "~/root";
import { getRequestContext } from "~/lib/context.server";
import { NotificationsBell } from "~/components/admin/notifications";

/**
 * Signed-out visitors go to the admin sign-in. Everyone signed in may see the overview (with
 * "Admin only" figures); every other page of the dashboard is for admins alone.
 */
const dashboardGuard: Route.MiddlewareFunction = ({ context, request }) => {
  const viewer = getViewer(context);
  const path = pageUrl(request).pathname;
  if (!viewer) throw redirect(`/dashboard?redirectTo=${encodeURIComponent(path)}`);
  if (viewer.role !== "admin" && path !== "/dashboard/overview") throw redirect("/dashboard/overview");
};

export const middleware: Route.MiddlewareFunction[] = [dashboardGuard];

export async function loader({ context }: Route.LoaderArgs) {
  const viewer = areaViewer(context);
  // Notifications are the admins' alone; the bell is not rendered for anyone else.
  const notifications =
    viewer.role === "admin" ? await getRequestContext(context).services.adminFeed.notifications(viewer.id) : null;
  return { viewer, notifications };
}

/** Revalidating the shell on every navigation would refetch the notifications twice; the bell polls on its own. */
export function shouldRevalidate({ defaultShouldRevalidate, formAction }: ShouldRevalidateFunctionArgs) {
  return formAction ? defaultShouldRevalidate : false;
}

const NAV: NavGroup[] = [
  { label: "Dashboard", items: [{ to: "/dashboard/overview", label: "Overview", icon: LayoutDashboard }] },
  {
    label: "Center Management",
    items: [
      { to: "/dashboard/centers", label: "Center List", icon: Building2, end: true },
      { to: "/dashboard/centers/create", label: "Create Sub Center", icon: PlusCircle },
    ],
  },
  {
    label: "Settings",
    items: [
      { to: "/dashboard/settings/pricing", label: "Price Management", icon: Tags },
      { to: "/dashboard/settings/platform", label: "Platform Settings", icon: SlidersHorizontal },
    ],
  },
  { label: "Investors", items: [{ to: "/dashboard/bookings", label: "Seminar Bookings", icon: CalendarDays }] },
  { label: "Messages", items: [{ to: "/dashboard/messages", label: "Messages", icon: Mail }] },
];

export default function DashboardLayout({ loaderData }: Route.ComponentProps) {
  const root = useRootData();
  return (
    <AreaShell
      title="Admin Dashboard"
      brand={<SidebarBrand to="/dashboard/overview" name="Pathshala Admin" mark={<LogoMark />} />}
      nav={NAV}
      viewer={loaderData.viewer}
      initiallyCollapsed={root?.sidebarCollapsed ?? false}
      headerActions={
        <>
          {loaderData.notifications && <NotificationsBell initial={loaderData.notifications} />}
          <Form method="post" action="/logout">
            <button
              type="submit"
              className="flex items-center gap-1.5 rounded-md px-2.5 py-2 text-sm text-muted-foreground hover:bg-muted hover:text-foreground"
              title="Logout"
            >
              <LogOut className="size-4" aria-hidden />
              <span className="max-sm:sr-only">Logout</span>
            </button>
          </Form>
        </>
      }
    >
      <Outlet />
    </AreaShell>
  );
}
