import { MenuIcon } from "./icons";

export interface SiteLink {
  href: string;
  label: string;
  className?: string;
}

/**
 * The header's links: in a row on wide screens, behind a Menu button on phones (a <details>, so it
 * opens without JavaScript; the site script closes it once a link is chosen). Every template's
 * header stays on one line at 390 px.
 */
export function SiteNav({ links, className }: { links: SiteLink[]; className: string }) {
  return (
    <>
      <nav aria-label="Sections" className={`${className} ps-wide-nav`}>
        {links.map((link) => (
          <a key={link.href} href={link.href} className={link.className}>
            {link.label}
          </a>
        ))}
      </nav>
      <details className="ps-menu" data-site-menu="">
        <summary>
          <MenuIcon className="ps-icon" />
          Menu
        </summary>
        <nav aria-label="Menu" className="ps-menu-panel">
          {links.map((link) => (
            <a key={link.href} href={link.href}>
              {link.label}
            </a>
          ))}
        </nav>
      </details>
    </>
  );
}
