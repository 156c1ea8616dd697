import type { ReactNode } from "react";
import { Link } from "react-router";
import { ArrowLeft } from "lucide-react";
import { Logo } from "~/components/shell/logo";

/**
 * A page of its own with one card in the middle (sign-in, an invitation): a way home above it
 * and the brand on the right, the platform's logo unless the page names an institute.
 */
export function CardPage({
  brand,
  institute,
  wide = false,
  children,
}: {
  brand?: ReactNode;
  /** The institute whose domain the page is on: its name stands in for the logo. */
  institute?: string | null;
  wide?: boolean;
  children: ReactNode;
}) {
  return (
    <main className="grid min-h-screen place-items-center bg-gradient-to-b from-primary/5 to-background px-4 py-10">
      <div className={`w-full ${wide ? "max-w-lg" : "max-w-md"}`}>
        <div className="mb-6 flex items-center justify-between">
          <Link
            to="/"
            reloadDocument
            className="inline-flex items-center gap-1.5 text-sm text-muted-foreground hover:text-foreground"
          >
            <ArrowLeft className="size-4" aria-hidden /> Home
          </Link>
          {brand ?? (institute ? <span className="font-semibold">{institute}</span> : <Logo />)}
        </div>
        <div className="rounded-2xl border bg-card p-6 shadow-sm md:p-8">{children}</div>
      </div>
    </main>
  );
}
