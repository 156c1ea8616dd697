import type { Program } from "../types";

export const ENQUIRY_KINDS = ["Enquire", "Apply Now", "Book Demo"] as const;

/**
 * The enquiry form. Without JavaScript it posts to /enquiry and the server answers with a page;
 * the site script (enquiry-script.ts) sends it with fetch and opens it in a dialog from the
 * Enquire / Apply Now / Book Demo buttons.
 */
export function EnquiryForm({
  programs,
  idPrefix,
  kind = "Enquire",
}: {
  programs: Program[];
  idPrefix: string;
  kind?: string;
}) {
  const id = (name: string) => `${idPrefix}-${name}`;
  return (
    <form className="ps-form" method="post" action="/enquiry" data-enquiry-form="">
      <input type="hidden" name="kind" value={kind} />
      <div className="ps-field">
        <label htmlFor={id("name")}>Your name</label>
        <input id={id("name")} name="name" autoComplete="name" required maxLength={100} />
      </div>
      <div className="ps-field-row">
        <div className="ps-field">
          <label htmlFor={id("phone")}>Phone</label>
          <input
            id={id("phone")}
            name="phone"
            type="tel"
            autoComplete="tel"
            required
            placeholder="+91 98765 43210"
            maxLength={20}
          />
        </div>
        <div className="ps-field">
          <label htmlFor={id("email")}>E-mail (optional)</label>
          <input id={id("email")} name="email" type="email" autoComplete="email" maxLength={254} />
        </div>
      </div>
      <div className="ps-field">
        <label htmlFor={id("program")}>Program</label>
        <select id={id("program")} name="program" defaultValue={programs[0]?.name ?? ""}>
          {programs.map((p) => (
            <option key={p.name} value={p.name}>
              {p.name}
            </option>
          ))}
          <option value="Other">Other / not sure yet</option>
        </select>
      </div>
      <div className="ps-field">
        <label htmlFor={id("message")}>Message (optional)</label>
        <textarea id={id("message")} name="message" rows={3} maxLength={1000} />
      </div>
      <p className="ps-form-status" role="status" aria-live="polite" data-enquiry-status="" />
      <button type="submit" className="ps-btn ps-btn-primary">
        Send enquiry
      </button>
    </form>
  );
}

/** The dialog the buttons open when JavaScript runs (a closed <dialog> is never shown otherwise). */
export function EnquiryDialog({ programs }: { programs: Program[] }) {
  return (
    <dialog className="ps-dialog" id="enquiry-dialog" aria-labelledby="enquiry-dialog-title">
      <div className="ps-dialog-head">
        <h2 id="enquiry-dialog-title" data-enquiry-title="">
          Enquire
        </h2>
        <button type="button" className="ps-dialog-close" data-enquiry-close="" aria-label="Close">
          ×
        </button>
      </div>
      <EnquiryForm programs={programs} idPrefix="dialog" />
    </dialog>
  );
}

/** A call-to-action that opens the enquiry dialog (or jumps to the form without JavaScript). */
export function EnquiryButton({ kind, className }: { kind: (typeof ENQUIRY_KINDS)[number]; className: string }) {
  return (
    <a href="#contact" className={className} data-enquire={kind}>
      {kind}
    </a>
  );
}
