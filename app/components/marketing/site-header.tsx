import { useEffect, useState } from "react";
import { Link, useLocation } from "react-router";
import { Menu, X } from "lucide-react";
import { Logo } from "~/components/shell/logo";
import { ThemeSwitcher } from "~/components/theme";
import { buttonClasses } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import type { Theme } from "~/lib/viewer";
import { TRIAL_START_PATH } from "#common/trial.ts";

export interface HeaderLink {
  to: string;
  label: string;
}

/** The landing page's links (spec §2); the mobile menu adds the catalogue. */
export const SITE_LINKS: HeaderLink[] = [
  { to: "/creator", label: "Creators" },
  { to: "/business", label: "Businesses" },
  { to: "/student", label: "Students" },
  { to: "/pricing", label: "Pricing" },
  { to: "/about", label: "About" },
  { to: "/contact", label: "Contact" },
];

/** The pricing page's links (spec §2 "/pricing"). */
export const PRICING_LINKS: HeaderLink[] = [
  { to: "/", label: "Home" },
  { to: "/#features", label: "Features" },
  { to: "/#about", label: "About" },
  { to: "/#contact", label: "Contact" },
];

const SCROLL_THRESHOLD = 20;

/** The marketing pages' header: it gains a solid background and shadow after 20 px of scroll. */
export function SiteHeader({
  links,
  theme,
  variant,
}: {
  links: HeaderLink[];
  theme: Theme;
  variant: "site" | "pricing";
}) {
  const [scrolled, setScrolled] = useState(false);
  const location = useLocation();
  // The menu belongs to the page it was opened on: navigating closes it.
  const [menuOn, setMenuOn] = useState<string | null>(null);
  const menuOpen = menuOn === location.key;

  useEffect(() => {
    let frame = 0;
    const update = () => {
      frame = 0;
      setScrolled(window.scrollY > SCROLL_THRESHOLD);
    };
    const onScroll = () => {
      if (!frame) frame = requestAnimationFrame(update);
    };
    update();
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => {
      window.removeEventListener("scroll", onScroll);
      if (frame) cancelAnimationFrame(frame);
    };
  }, []);

  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && setMenuOn(null);
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [menuOpen]);

  const mobileLinks = [...links, { to: "/catalog", label: "Catalog" }];
  return (
    <header
      data-scrolled={scrolled}
      className={cn(
        "sticky top-0 z-40 border-b transition-[background-color,box-shadow,border-color] duration-200",
        scrolled ? "border-border bg-background/95 shadow-sm backdrop-blur" : "border-transparent bg-background",
      )}
    >
      <div className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-4 sm:px-6">
        <Link to="/" className="rounded-md" aria-label="Pathshala home">
          <Logo />
        </Link>
        <nav aria-label="Main" className="ml-4 hidden lg:block">
          <ul className="flex items-center gap-1">
            {links.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="rounded-md px-3 py-2 text-sm font-medium text-muted-foreground transition-colors hover:bg-muted hover:text-foreground"
                >
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="ml-auto hidden items-center gap-2 lg:flex">
          <ThemeSwitcher initial={theme} />
          {variant === "pricing" ? (
            <Link to="/auth" className={buttonClasses("ghost", "sm")}>
              Sign In
            </Link>
          ) : (
            <Link to="/invest" className={buttonClasses("outline", "sm")}>
              Invest Now
            </Link>
          )}
          <Link
            to={variant === "pricing" ? "/get-started" : TRIAL_START_PATH}
            className={buttonClasses("default", "sm")}
          >
            {variant === "pricing" ? "Get Started" : "Start Free Trial"}
          </Link>
        </div>
        <button
          type="button"
          className="ml-auto grid size-10 place-items-center rounded-md text-foreground hover:bg-muted lg:hidden"
          aria-expanded={menuOpen}
          aria-controls="site-menu"
          aria-label={menuOpen ? "Close menu" : "Open menu"}
          onClick={() => setMenuOn(menuOpen ? null : location.key)}
        >
          {menuOpen ? <X className="size-5" aria-hidden /> : <Menu className="size-5" aria-hidden />}
        </button>
      </div>
      <div id="site-menu" hidden={!menuOpen} className="border-t bg-background lg:hidden">
        <nav aria-label="Mobile" className="mx-auto max-w-6xl px-4 py-3 sm:px-6">
          <ul className="grid gap-1">
            {mobileLinks.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="block rounded-md px-3 py-2.5 text-base font-medium hover:bg-muted">
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
          <div className="mt-3 grid gap-2 border-t pt-3 sm:grid-cols-2">
            {variant === "pricing" ? (
              <Link to="/auth" className={buttonClasses("outline")}>
                Sign In
              </Link>
            ) : (
              <Link to="/invest" className={buttonClasses("outline")}>
                Join Now
              </Link>
            )}
            <Link to={variant === "pricing" ? "/get-started" : TRIAL_START_PATH} className={buttonClasses("default")}>
              {variant === "pricing" ? "Get Started" : "Start Free Trial"}
            </Link>
          </div>
          <div className="mt-3 flex items-center justify-between border-t pt-3 text-sm text-muted-foreground">
            Theme
            <ThemeSwitcher initial={theme} />
          </div>
        </nav>
      </div>
    </header>
  );
}
