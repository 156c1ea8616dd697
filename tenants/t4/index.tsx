import type { SiteData } from "../types";
import { CatalogBlocks } from "../shared/catalog";
import { ContactList, InstituteMark } from "../shared/contact";
import { EnquiryButton, EnquiryDialog, EnquiryForm } from "../shared/enquiry-form";
import { WHY_US } from "../shared/why-us";
import { brandStyle } from "../shared/brand";
import { SiteNav, type SiteLink } from "../shared/site-nav";
import { inWords, programFocus, siteLinks } from "../defaults";

const LINKS: SiteLink[] = [
  { href: "#programs", label: "Programs" },
  { href: "#why-us", label: "Approach" },
  { href: "#testimonials", label: "Students" },
  { href: "#contact", label: "Contact" },
  { href: "/auth?role=student", label: "Sign in" },
];

/** Calm: minimal and airy. Cream paper, violet accents, a quiet timeline of stories. */
export function Template4({ data }: { data: SiteData }) {
  const year = new Date().getFullYear();
  return (
    <div className="ps-site t4" data-template="t4" style={brandStyle(data.brandColor)}>
      <header className="t4-header">
        <a className="ps-skip" href="#programs">
          Skip to content
        </a>
        <div className="ps-wrap t4-header-in ps-header-row">
          <a href="/" className="t4-brand ps-brand">
            <InstituteMark data={data} className="t4-mark" />
            <span>{data.instituteName}</span>
          </a>
          <SiteNav links={siteLinks(LINKS, data)} className="t4-nav" />
        </div>
      </header>

      <main>
        <section className="t4-hero">
          <div className="ps-wrap t4-narrow">
            <h1>{data.tagline}</h1>
            <p className="t4-sub">
              Coaching for {inWords(programFocus(data.programs))} at {data.instituteName}.
            </p>
            <div className="t4-ctas">
              <EnquiryButton kind="Book Demo" className="ps-btn ps-btn-primary" />
              <EnquiryButton kind="Apply Now" className="ps-btn t4-btn-quiet" />
              <EnquiryButton kind="Enquire" className="ps-btn t4-btn-quiet" />
            </div>
          </div>
        </section>

        <section id="programs" className="t4-section">
          <div className="ps-wrap t4-narrow">
            <h2 className="t4-h2">Programs</h2>
            <ul className="t4-programs">
              {data.programs.map((p) => (
                <li key={p.name}>
                  <h3>{p.name}</h3>
                  {p.description && <p>{p.description}</p>}
                </li>
              ))}
            </ul>
          </div>
        </section>

        <section id="why-us" className="t4-section t4-soft">
          <div className="ps-wrap t4-narrow">
            <h2 className="t4-h2">Our approach</h2>
            <dl className="t4-why">
              {WHY_US.map((w) => (
                <div key={w.title}>
                  <dt>{w.title}</dt>
                  <dd>{w.text}</dd>
                </div>
              ))}
            </dl>
          </div>
        </section>

        <section id="classes" className="t4-section">
          <div className="ps-wrap">
            <h2 className="t4-h2 t4-narrow">Classes &amp; materials</h2>
            <CatalogBlocks catalog={data.catalog} />
          </div>
        </section>

        {data.testimonials.length > 0 && (
          <section id="testimonials" className="t4-section t4-soft">
            <div className="ps-wrap t4-narrow">
              <h2 className="t4-h2">In our students' words</h2>
              <ol className="t4-timeline">
                {data.testimonials.map((t) => (
                  <li key={t.name}>
                    <blockquote>{t.text}</blockquote>
                    <p className="t4-who">
                      {t.name}
                      {t.result && <span> · {t.result}</span>}
                    </p>
                    <span className="ps-visually-hidden">Rated 5 out of 5 stars</span>
                  </li>
                ))}
              </ol>
            </div>
          </section>
        )}

        <section id="contact" className="t4-section">
          <div className="ps-wrap t4-contact">
            <div>
              <h2 className="t4-h2">Say hello</h2>
              <ContactList data={data} />
            </div>
            <EnquiryForm programs={data.programs} idPrefix="contact" />
          </div>
        </section>
      </main>

      <footer className="t4-footer">
        <div className="ps-wrap">
          {data.instituteName} · © {year}
        </div>
      </footer>
      <EnquiryDialog programs={data.programs} />
    </div>
  );
}

export const T4_CSS = `
.t4{--brand:#6d28d9;--brand-ink:#5b21b6;--on-brand:#fff;--ink:#1f2937;--muted:#5b6472;--paper:#f7f3ea;--card:#fffdf8;--field:#fffdf8;--line:#e4dccb;--radius:.9rem;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.t4 h1,.t4 h2,.t4 h3{font-family:"Iowan Old Style","Palatino Linotype",Palatino,"Book Antiqua",serif;font-weight:500;line-height:1.2}
.t4-narrow{max-width:48rem}
.t4-header-in{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:1rem;padding-top:1.5rem;padding-bottom:1.5rem}
.t4-brand{display:flex;align-items:center;gap:.6rem;text-decoration:none;font-size:1.1rem;letter-spacing:.02em}
.t4-mark{display:grid;place-items:center;width:2.2rem;height:2.2rem;border-radius:50%;border:1px solid var(--brand);color:var(--brand-ink);font-size:.8rem;object-fit:cover}
.t4-nav{display:flex;flex-wrap:wrap;gap:1.5rem;font-size:.95rem}
.t4-nav a{text-decoration:none;color:var(--muted)}
.t4-nav a:hover{color:var(--ink)}
.t4-hero{padding:5rem 0 4rem}
.t4-hero h1{font-size:clamp(2rem,5vw,3.2rem);margin:0;padding-bottom:1.25rem;border-bottom:1px solid var(--brand)}
.t4-sub{color:var(--muted);font-size:1.1rem;margin:1.25rem 0 0}
.t4-ctas{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:2rem}
.t4 .ps-btn{border-radius:999px;font-weight:500}
.t4-btn-quiet{border-color:var(--line);background:transparent}
.t4-section{padding:4rem 0}
.t4-soft{background:var(--card)}
.t4-h2{font-size:2rem;margin:0 0 1.75rem}
.t4-programs{list-style:none;margin:0;padding:0}
.t4-programs li{padding:1.25rem 0;border-top:1px solid var(--line)}
.t4-programs li:last-child{border-bottom:1px solid var(--line)}
.t4-programs h3{margin:0 0 .35rem;font-size:1.4rem;color:var(--brand-ink)}
.t4-programs p{margin:0;color:var(--muted)}
.t4-why{display:grid;gap:1.5rem 2.5rem;margin:0}
@media(min-width:700px){.t4-why{grid-template-columns:1fr 1fr}}
.t4-why dt{font-weight:600;margin-bottom:.25rem}
.t4-why dd{margin:0;color:var(--muted)}
.t4-timeline{list-style:none;margin:0;padding:0 0 0 1.5rem;border-left:2px solid var(--brand)}
.t4-timeline li{position:relative;padding:0 0 2rem}
.t4-timeline li::before{content:"";position:absolute;left:-1.95rem;top:.4rem;width:.8rem;height:.8rem;border-radius:50%;background:var(--brand)}
.t4-timeline blockquote{margin:0;font-family:"Iowan Old Style","Palatino Linotype",Palatino,serif;font-size:1.2rem}
.t4-who{margin:.5rem 0 0;color:var(--muted);font-size:.95rem}
.t4-contact{display:grid;gap:2.5rem}
@media(min-width:860px){.t4-contact{grid-template-columns:1fr 1.3fr}}
.t4-footer{padding:2rem 0;color:var(--muted);font-size:.9rem;border-top:1px solid var(--line)}
@media(max-width:760px){.t4-header-in{padding-top:1rem;padding-bottom:1rem}}
`;
