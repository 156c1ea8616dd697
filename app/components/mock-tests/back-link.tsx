import { Link } from "react-router";
import { ArrowLeft } from "lucide-react";

/** The way back to the Tests area's list a page was opened from (the route's parent). */
export function BackLink({ children }: { children: React.ReactNode }) {
  return (
    <Link
      to=".."
      relative="path"
      className="mb-3 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground"
    >
      <ArrowLeft className="size-4" aria-hidden /> {children}
    </Link>
  );
}
