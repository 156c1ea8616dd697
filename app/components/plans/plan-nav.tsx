import { NavLink } from "react-router";
import { cn } from "~/lib/cn";

/** Switches between the two plan pages: the cards with the full editor, and quick inline edits. */
export function PlanPagesNav() {
  const link = ({ isActive }: { isActive: boolean }) =>
    cn(
      "rounded-md px-3 py-1.5 text-sm font-medium transition",
      isActive ? "bg-background shadow-sm" : "text-muted-foreground hover:text-foreground",
    );
  return (
    <nav aria-label="Plan pages" className="inline-flex rounded-lg bg-muted p-1">
      <NavLink to="/dashboard/settings" end className={link}>
        Plan cards
      </NavLink>
      <NavLink to="/dashboard/settings/pricing" end className={link}>
        Quick edit
      </NavLink>
    </nav>
  );
}
