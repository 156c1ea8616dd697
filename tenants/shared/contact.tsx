import type { SiteData } from "../types";
import { MailIcon, PhoneIcon, PinIcon } from "./icons";

export function ContactList({ data }: { data: SiteData }) {
  return (
    <ul className="ps-contact-list">
      <li>
        <PinIcon className="ps-icon" />
        <span>{data.address}</span>
      </li>
      <li>
        <PhoneIcon className="ps-icon" />
        <a href={`tel:${data.phone.replace(/[^\d+]/g, "")}`}>{data.phone}</a>
      </li>
      <li>
        <MailIcon className="ps-icon" />
        <a href={`mailto:${data.email}`}>{data.email}</a>
      </li>
    </ul>
  );
}

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
