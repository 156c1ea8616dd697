import type { SiteData } from "../types";
import { CatalogBlocks } from "../shared/catalog";
import { ContactList, InstituteMark } from "../shared/contact";
import { EnquiryButton, EnquiryDialog, EnquiryForm } from "../shared/enquiry-form";
import { Stars } from "../shared/stars";
import { WHY_US } from "../shared/why-us";
import { brandStyle } from "../shared/brand";
import { SiteNav, type SiteLink } from "../shared/site-nav";
import { siteLinks } from "../defaults";

const LINKS: SiteLink[] = [
  { href: "#programs", label: "Programs" },
  { href: "#why-us", label: "Why us" },
  { href: "#testimonials", label: "Toppers" },
  { href: "#contact", label: "Contact" },
  { href: "/auth?role=student", label: "Login" },
];

/** Spark: bold and energetic. Big type, warm orange, chunky bordered cards. */
export function Template3({ data }: { data: SiteData }) {
  const year = new Date().getFullYear();
  return (
    <div className="ps-site t3" data-template="t3" style={brandStyle(data.brandColor)}>
      <header className="t3-header">
        <a className="ps-skip" href="#programs">
          Skip to content
        </a>
        <div className="ps-wrap t3-header-in ps-header-row">
          <a href="/" className="t3-brand ps-brand">
            <InstituteMark data={data} className="t3-mark" />
            <span>{data.instituteName}</span>
          </a>
          <SiteNav links={siteLinks(LINKS, data)} className="t3-nav" />
        </div>
      </header>

      <main>
        <section className="t3-hero">
          <div className="ps-wrap">
            <p className="t3-sticker">Admissions open</p>
            <h1>{data.instituteName}</h1>
            <p className="t3-tagline">{data.tagline}</p>
            <div className="t3-ctas">
              <EnquiryButton kind="Apply Now" className="ps-btn t3-btn t3-btn-dark" />
              <EnquiryButton kind="Book Demo" className="ps-btn t3-btn" />
              <EnquiryButton kind="Enquire" className="ps-btn t3-btn t3-btn-light" />
            </div>
          </div>
        </section>

        <section id="programs" className="t3-section">
          <div className="ps-wrap">
            <h2 className="t3-h2">Programs</h2>
            <div className="t3-programs">
              {data.programs.map((p) => (
                <article key={p.name} className="t3-card">
                  <h3>{p.name}</h3>
                  {p.description && <p>{p.description}</p>}
                  <EnquiryButton kind="Enquire" className="ps-btn t3-btn t3-btn-small" />
                </article>
              ))}
            </div>
          </div>
        </section>

        <section id="why-us" className="t3-section t3-band">
          <div className="ps-wrap">
            <h2 className="t3-h2">Why us?</h2>
            <ol className="t3-why">
              {WHY_US.map((w, i) => (
                <li key={w.title}>
                  <span className="t3-big">{i + 1}</span>
                  <div>
                    <h3>{w.title}</h3>
                    <p>{w.text}</p>
                  </div>
                </li>
              ))}
            </ol>
          </div>
        </section>

        <section id="classes" className="t3-section">
          <div className="ps-wrap">
            <h2 className="t3-h2">Classes &amp; materials</h2>
            <CatalogBlocks catalog={data.catalog} />
          </div>
        </section>

        {data.testimonials.length > 0 && (
          <section id="testimonials" className="t3-section t3-yellow">
            <div className="ps-wrap">
              <h2 className="t3-h2">Our toppers</h2>
              <div className="t3-programs">
                {data.testimonials.map((t) => (
                  <figure key={t.name} className="t3-card t3-quote">
                    <Stars />
                    <blockquote>“{t.text}”</blockquote>
                    <figcaption>
                      <strong>{t.name}</strong>
                      {t.result && <span className="t3-result">{t.result}</span>}
                    </figcaption>
                  </figure>
                ))}
              </div>
            </div>
          </section>
        )}

        <section id="contact" className="t3-section">
          <div className="ps-wrap t3-contact">
            <div className="t3-card">
              <h2 className="t3-h2 t3-small-h2">Find us</h2>
              <ContactList data={data} />
            </div>
            <div className="t3-card">
              <h2 className="t3-h2 t3-small-h2">Ask us anything</h2>
              <EnquiryForm programs={data.programs} idPrefix="contact" />
            </div>
          </div>
        </section>
      </main>

      <footer className="t3-footer">
        <div className="ps-wrap">
          © {year} {data.instituteName} · Made for achievers
        </div>
      </footer>
      <EnquiryDialog programs={data.programs} />
    </div>
  );
}

export const T3_CSS = `
.t3{--brand:#c2410c;--brand-ink:#9a3412;--on-brand:#fff;--ink:#111827;--muted:#4b5563;--paper:#fffaf3;--card:#fff;--line:#111827;--radius:.25rem;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.t3 h1,.t3 h2,.t3 h3{font-weight:900;letter-spacing:-.03em;line-height:1.05}
.t3-header{border-bottom:3px solid var(--ink);background:var(--paper)}
.t3-header-in{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:1rem;padding-top:1rem;padding-bottom:1rem}
.t3-brand{display:flex;align-items:center;gap:.6rem;font-weight:900;font-size:1.2rem;text-transform:uppercase;text-decoration:none}
.t3-mark{display:grid;place-items:center;width:2.4rem;height:2.4rem;background:var(--brand);color:var(--on-brand);border:3px solid var(--ink);font-weight:900;object-fit:cover}
.t3-nav{display:flex;flex-wrap:wrap;gap:1rem;font-weight:700;text-transform:uppercase;font-size:.85rem}
.t3-nav a{text-decoration:none;border-bottom:3px solid transparent}
.t3-nav a:hover{border-color:var(--brand)}
.t3-hero{background:var(--brand);color:var(--on-brand);padding:4.5rem 0 5rem;border-bottom:3px solid var(--ink)}
.t3-sticker{display:inline-block;margin:0;background:#facc15;color:var(--ink);font-weight:900;text-transform:uppercase;padding:.3rem .8rem;border:3px solid var(--ink);transform:rotate(-2deg)}
.t3-hero h1{font-size:clamp(2.6rem,9vw,5.5rem);margin:1rem 0;text-transform:uppercase}
.t3-tagline{font-size:1.25rem;max-width:38rem;margin:0;font-weight:500}
.t3-ctas{display:flex;flex-wrap:wrap;gap:1rem;margin-top:2.25rem}
.t3-btn{border:3px solid var(--ink);background:#fff;color:var(--ink);box-shadow:5px 5px 0 var(--ink);text-transform:uppercase;border-radius:0}
.t3-btn:hover{transform:translate(-2px,-2px);box-shadow:7px 7px 0 var(--ink)}
.t3-btn-dark{background:var(--ink);color:#fff;box-shadow:5px 5px 0 #fff}
.t3-btn-light{background:#facc15}
.t3-btn-small{min-height:2.4rem;padding:.35rem .9rem;font-size:.85rem;box-shadow:3px 3px 0 var(--ink);align-self:flex-start}
.t3-section{padding:4.5rem 0}
.t3-h2{font-size:clamp(2rem,6vw,3.5rem);text-transform:uppercase;margin:0 0 2rem}
.t3-small-h2{font-size:1.6rem;margin-bottom:1.25rem}
.t3-programs{display:grid;gap:1.75rem;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr))}
.t3-card{background:var(--card);border:3px solid var(--ink);box-shadow:8px 8px 0 var(--brand);padding:1.75rem;display:flex;flex-direction:column;gap:.75rem}
.t3-card h3{margin:0;font-size:1.5rem}
.t3-card p{margin:0;color:var(--muted)}
.t3-band{background:var(--ink);color:#fff}
.t3-band .t3-h2{color:#facc15}
.t3-why{list-style:none;margin:0;padding:0;display:grid;gap:2rem;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr))}
.t3-why li{display:flex;gap:1rem}
.t3-big{font-size:3.5rem;font-weight:900;line-height:1;color:var(--brand)}
.t3-why h3{margin:.25rem 0 .4rem;font-size:1.3rem}
.t3-why p{margin:0;color:#d1d5db}
.t3 .ps-catalog-item{border:2px solid var(--ink);border-radius:0}
.t3-yellow{background:#fef3c7;border-top:3px solid var(--ink);border-bottom:3px solid var(--ink)}
.t3-quote{margin:0}.t3-quote blockquote{margin:0;font-size:1.1rem;font-weight:600}
.t3-quote figcaption{display:grid}
.t3-result{color:var(--brand-ink);font-weight:800}
.t3-contact{display:grid;gap:2rem}
@media(min-width:860px){.t3-contact{grid-template-columns:1fr 1.3fr}}
.t3 .ps-field input,.t3 .ps-field select,.t3 .ps-field textarea{border:2px solid var(--ink);border-radius:0}
.t3 .ps-form .ps-btn-primary{border:3px solid var(--ink);border-radius:0;box-shadow:4px 4px 0 var(--ink);text-transform:uppercase}
.t3-footer{background:var(--ink);color:#fff;padding:1.5rem 0;font-weight:700;text-transform:uppercase;font-size:.85rem}
`;
