import { useCallback, useEffect, useState } from "react";
import { Form, Link, NavLink, useLocation, useNavigation } from "react-router";
import { ChevronDown, LogOut, PanelLeft, X, type LucideIcon } from "lucide-react";
import { cn } from "~/lib/cn";
import type { Viewer } from "~/lib/viewer";
import { storeSidebarExpanded } from "./sidebar-state";
import { UserAvatar } from "./user-avatar";

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
  /** Match the path exactly (for an area's home). */
  end?: boolean;
  /** A collapsible group (e.g. the student's Class Room). */
  children?: Omit<NavItem, "children">[];
}

export interface NavGroup {
  label?: string;
  items: NavItem[];
}

/**
 * The shell of every signed-in area: a sidebar (16rem, or 3rem of icons when collapsed;
 * ctrl/cmd+B toggles; an 18rem overlay under 768px) and a header with the page's actions.
 */
export function AreaShell({
  title,
  brand,
  nav,
  viewer,
  displayName,
  initiallyCollapsed,
  headerActions,
  children,
}: {
  title: string;
  brand: React.ReactNode;
  nav: NavGroup[];
  viewer: Viewer;
  /** Shown under the avatar (e.g. the business's owner name); defaults to the viewer's name. */
  displayName?: string;
  initiallyCollapsed: boolean;
  headerActions?: React.ReactNode;
  children: React.ReactNode;
}) {
  const [expanded, setExpanded] = useState(!initiallyCollapsed);
  const navigation = useNavigation();
  const location = useLocation();
  // The overlay belongs to the page it was opened on: navigating closes it.
  const [mobileOpenOn, setMobileOpenOn] = useState<string | null>(null);
  const mobileOpen = mobileOpenOn === location.pathname;
  const setMobileOpen = useCallback(
    (open: boolean | ((was: boolean) => boolean)) =>
      setMobileOpenOn((current) => {
        const was = current === window.location.pathname;
        const next = typeof open === "function" ? open(was) : open;
        return next ? window.location.pathname : null;
      }),
    [],
  );

  const toggle = useCallback(() => {
    if (window.matchMedia("(max-width: 767px)").matches) {
      setMobileOpen((open) => !open);
      return;
    }
    setExpanded((value) => {
      storeSidebarExpanded(!value);
      return !value;
    });
  }, [setMobileOpen]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === "b") {
        event.preventDefault();
        toggle();
      }
      if (event.key === "Escape") setMobileOpen(false);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [toggle, setMobileOpen]);

  const loading = navigation.state === "loading";

  return (
    <div className="flex min-h-screen bg-muted/30">
      <aside
        data-state={expanded ? "expanded" : "collapsed"}
        className={cn(
          "sticky top-0 hidden h-screen shrink-0 flex-col border-r bg-card transition-[width] duration-200 md:flex",
          expanded ? "w-64" : "w-12",
        )}
        aria-label={`${title} navigation`}
      >
        <SidebarBody brand={brand} nav={nav} viewer={viewer} displayName={displayName} compact={!expanded} />
      </aside>

      {mobileOpen && (
        <div className="fixed inset-0 z-40 md:hidden">
          <button
            type="button"
            aria-label="Close menu"
            className="absolute inset-0 bg-black/50"
            onClick={() => setMobileOpen(false)}
          />
          <aside
            className="absolute inset-y-0 left-0 flex w-72 flex-col border-r bg-card shadow-xl"
            aria-label={`${title} navigation`}
          >
            <button
              type="button"
              onClick={() => setMobileOpen(false)}
              className="absolute right-2 top-3 rounded-md p-1.5 text-muted-foreground hover:bg-muted"
              aria-label="Close menu"
            >
              <X className="size-4" aria-hidden />
            </button>
            <SidebarBody brand={brand} nav={nav} viewer={viewer} displayName={displayName} compact={false} />
          </aside>
        </div>
      )}

      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-14 items-center gap-3 border-b bg-background/90 px-4 backdrop-blur">
          <button
            type="button"
            onClick={toggle}
            className="rounded-md p-2 text-muted-foreground hover:bg-muted hover:text-foreground"
            aria-label="Toggle sidebar"
            title="Toggle sidebar (Ctrl/⌘ + B)"
          >
            <PanelLeft className="size-4" aria-hidden />
          </button>
          <span className="truncate text-sm font-medium text-muted-foreground">{title}</span>
          <div className="ml-auto flex items-center gap-2">{headerActions}</div>
        </header>
        <div aria-live="polite" className={cn("h-0.5 w-full", loading && "animate-pulse bg-primary")}>
          {loading && <span className="sr-only">Loading...</span>}
        </div>
        <main id="main" className="flex-1 p-4 md:p-8">
          {children}
        </main>
      </div>
    </div>
  );
}

function SidebarBody({
  brand,
  nav,
  viewer,
  displayName,
  compact,
}: {
  brand: React.ReactNode;
  nav: NavGroup[];
  viewer: Viewer;
  displayName?: string;
  compact: boolean;
}) {
  return (
    <>
      <div className={cn("flex h-14 items-center border-b px-3", compact && "justify-center px-0")}>{brand}</div>
      <nav className="flex-1 overflow-y-auto p-2">
        {nav.map((group, index) => (
          <div key={group.label ?? index} className="mb-3">
            {group.label && !compact && (
              <p className="px-2 pb-1 pt-2 text-xs font-medium uppercase tracking-wide text-muted-foreground">
                {group.label}
              </p>
            )}
            <ul className="grid gap-0.5">
              {group.items.map((item) => (
                <li key={item.to}>
                  {item.children ? (
                    <NavTree item={item} compact={compact} />
                  ) : (
                    <NavEntry item={item} compact={compact} />
                  )}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      <div className={cn("border-t p-2", compact && "px-1")}>
        <div className={cn("flex items-center gap-2 rounded-md p-2", compact && "justify-center p-1")}>
          <UserAvatar name={displayName ?? viewer.name} url={viewer.avatarUrl} size={compact ? 28 : 32} />
          {!compact && (
            <div className="min-w-0 text-sm">
              <p className="truncate font-medium">{displayName ?? viewer.name}</p>
              <p className="truncate text-xs text-muted-foreground">{viewer.email}</p>
            </div>
          )}
        </div>
        <Form method="post" action="/logout">
          <button
            type="submit"
            className={cn(
              "flex w-full items-center gap-2 rounded-md px-2 py-2 text-sm text-muted-foreground hover:bg-muted hover:text-foreground",
              compact && "justify-center",
            )}
            title="Logout"
          >
            <LogOut className="size-4 shrink-0" aria-hidden />
            <span className={cn(compact && "sr-only")}>Logout</span>
          </button>
        </Form>
      </div>
    </>
  );
}

const entryClasses = (active: boolean, compact: boolean) =>
  cn(
    "flex items-center gap-2 rounded-md px-2 py-2 text-sm transition-colors",
    active ? "bg-primary/10 font-medium text-primary" : "text-foreground/80 hover:bg-muted hover:text-foreground",
    compact && "justify-center",
  );

function NavEntry({ item, compact }: { item: Omit<NavItem, "children">; compact: boolean }) {
  const Icon = item.icon;
  return (
    <NavLink
      to={item.to}
      end={item.end}
      prefetch="intent"
      title={compact ? item.label : undefined}
      className={({ isActive }) => entryClasses(isActive, compact)}
    >
      <Icon className="size-4 shrink-0" aria-hidden />
      <span className={cn("truncate", compact && "sr-only")}>{item.label}</span>
    </NavLink>
  );
}

function NavTree({ item, compact }: { item: NavItem; compact: boolean }) {
  const location = useLocation();
  const inside = item.children!.some((child) => location.pathname.startsWith(child.to));
  const [open, setOpen] = useState(true);
  const Icon = item.icon;
  if (compact) {
    return (
      <ul className="grid gap-0.5">
        {item.children!.map((child) => (
          <li key={child.to}>
            <NavEntry item={child} compact />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <div>
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        className={cn(entryClasses(inside && !open, false), "w-full")}
      >
        <Icon className="size-4 shrink-0" aria-hidden />
        <span className="flex-1 truncate text-left">{item.label}</span>
        <ChevronDown className={cn("size-4 transition-transform", open && "rotate-180")} aria-hidden />
      </button>
      {open && (
        <ul className="ml-4 mt-0.5 grid gap-0.5 border-l pl-2">
          {item.children!.map((child) => (
            <li key={child.to}>
              <NavEntry item={child} compact={false} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A brand block for the sidebar's top: a mark and (when expanded) a name linking home. */
export function SidebarBrand({ to, name, mark }: { to: string; name: string; mark: React.ReactNode }) {
  return (
    <Link to={to} className="flex min-w-0 items-center gap-2 font-semibold" title={name}>
      {mark}
      <span className="truncate [[data-state=collapsed]_&]:sr-only">{name}</span>
    </Link>
  );
}
