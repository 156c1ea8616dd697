import type { SiteData } from "../types";
import { MailIcon, PhoneIcon, PinIcon } from "./icons";

/** The contact details the institute has given; each one it has not is left out, never a sample. */
export function ContactList({ data }: { data: SiteData }) {
  if (!data.address && !data.phone && !data.email) return null;
  return (
    <ul className="ps-contact-list">
      {data.address && (
        <li>
          <PinIcon className="ps-icon" />
          <span>{data.address}</span>
        </li>
      )}
      {data.phone && (
        <li>
          <PhoneIcon className="ps-icon" />
          <a href={telHref(data.phone)}>{data.phone}</a>
        </li>
      )}
      {data.email && (
        <li>
          <MailIcon className="ps-icon" />
          <a href={`mailto:${data.email}`}>{data.email}</a>
        </li>
      )}
    </ul>
  );
}

export const telHref = (phone: string) => `tel:${phone.replace(/[^\d+]/g, "")}`;

/** The institute's mark: its uploaded logo, or its initials. */
export function InstituteMark({ data, className }: { data: SiteData; className: string }) {
  if (data.logoUrl) return <img src={data.logoUrl} alt="" className={className} width={40} height={40} />;
  const initials = data.instituteName
    .split(/\s+/)
    .filter((w) => /^[A-Za-z]/.test(w))
    .slice(0, 2)
    .map((w) => w[0].toUpperCase())
    .join("");
  return (
    <span className={className} aria-hidden>
      {initials || "•"}
    </span>
  );
}
