import type { SiteData } from "../types";
import { CatalogBlocks } from "../shared/catalog";
import { ContactList, InstituteMark } from "../shared/contact";
import { EnquiryButton, EnquiryDialog, EnquiryForm } from "../shared/enquiry-form";
import { CheckIcon } from "../shared/icons";
import { Stars } from "../shared/stars";
import { WHY_US } from "../shared/why-us";
import { brandStyle } from "../shared/brand";
import { SiteNav, type SiteLink } from "../shared/site-nav";
import { siteLinks } from "../defaults";

const LINKS: SiteLink[] = [
  { href: "#programs", label: "Programs" },
  { href: "#why-us", label: "Why us" },
  { href: "#testimonials", label: "Stories" },
  { href: "#contact", label: "Contact" },
  { href: "/auth?role=student", label: "Student login", className: "t2-login" },
];

/** Horizon: modern and confident. A dark split hero, teal accents, results up front. */
export function Template2({ data }: { data: SiteData }) {
  const year = new Date().getFullYear();
  return (
    <div className="ps-site t2" data-template="t2" style={brandStyle(data.brandColor)}>
      <header className="t2-header">
        <a className="ps-skip" href="#programs">
          Skip to content
        </a>
        <div className="ps-wrap t2-header-in ps-header-row">
          <a href="/" className="t2-brand ps-brand">
            <InstituteMark data={data} className="t2-mark" />
            <span>{data.instituteName}</span>
          </a>
          <SiteNav links={siteLinks(LINKS, data)} className="t2-nav" />
        </div>
      </header>

      <main>
        <section className="t2-hero">
          <div className="ps-wrap t2-hero-in">
            <div>
              <h1>
                Crack the exam.
                <br />
                <span>Keep the love for learning.</span>
              </h1>
              <p className="t2-tagline">{data.tagline}</p>
              <div className="t2-ctas">
                <EnquiryButton kind="Apply Now" className="ps-btn ps-btn-primary" />
                <EnquiryButton kind="Enquire" className="ps-btn t2-btn-line" />
              </div>
            </div>
            <section className="t2-panel" aria-label="Book a free demo class">
              <p className="t2-panel-kicker">Free demo class</p>
              <p className="t2-panel-title">See how we teach before you decide.</p>
              <ul>
                {data.programs.slice(0, 3).map((p) => (
                  <li key={p.name}>
                    <CheckIcon className="ps-icon" /> {p.name}
                  </li>
                ))}
              </ul>
              <EnquiryButton kind="Book Demo" className="ps-btn ps-btn-primary t2-wide" />
            </section>
          </div>
        </section>
        <section id="programs" className="t2-section">
          <div className="ps-wrap">
            <p className="t2-kicker">Programs</p>
            <h2 className="t2-h2">Pick your path</h2>
            <ol className="t2-programs">
              {data.programs.map((p, i) => (
                <li key={p.name} className="t2-program">
                  <span className="t2-num">{String(i + 1).padStart(2, "0")}</span>
                  <div>
                    <h3>{p.name}</h3>
                    {p.description && <p>{p.description}</p>}
                  </div>
                  <EnquiryButton kind="Enquire" className="ps-btn t2-btn-small" />
                </li>
              ))}
            </ol>
          </div>
        </section>

        <section id="why-us" className="t2-section t2-dark">
          <div className="ps-wrap">
            <p className="t2-kicker">Why us</p>
            <h2 className="t2-h2">Built around the student</h2>
            <div className="t2-why">
              {WHY_US.map((w) => (
                <div key={w.title} className="t2-why-item">
                  <h3>{w.title}</h3>
                  <p>{w.text}</p>
                </div>
              ))}
            </div>
          </div>
        </section>

        <section id="classes" className="t2-section">
          <div className="ps-wrap">
            <p className="t2-kicker">Learn online</p>
            <h2 className="t2-h2">Classes &amp; materials</h2>
            <CatalogBlocks catalog={data.catalog} />
          </div>
        </section>

        {data.testimonials.length > 0 && (
          <section id="testimonials" className="t2-section t2-tint">
            <div className="ps-wrap">
              <p className="t2-kicker">Stories</p>
              <h2 className="t2-h2">Results that speak</h2>
              <div className="t2-quotes">
                {data.testimonials.map((t) => (
                  <figure key={t.name} className="t2-quote">
                    {t.result && <p className="t2-result">{t.result}</p>}
                    <blockquote>{t.text}</blockquote>
                    <figcaption>
                      <Stars /> <strong>{t.name}</strong>
                    </figcaption>
                  </figure>
                ))}
              </div>
            </div>
          </section>
        )}

        <section id="contact" className="t2-section t2-dark">
          <div className="ps-wrap t2-contact">
            <div>
              <p className="t2-kicker">Contact</p>
              <h2 className="t2-h2">Talk to a counsellor</h2>
              <ContactList data={data} />
            </div>
            <div className="t2-form-card">
              <EnquiryForm programs={data.programs} idPrefix="contact" />
            </div>
          </div>
        </section>
      </main>

      <footer className="t2-footer">
        <div className="ps-wrap">
          © {year} {data.instituteName}
        </div>
      </footer>
      <EnquiryDialog programs={data.programs} />
    </div>
  );
}

export const T2_CSS = `
.t2{--brand:#0f766e;--brand-ink:#115e59;--on-brand:#fff;--ink:#0f172a;--muted:#475569;--paper:#fff;--card:#fff;--line:#e2e8f0;--night:#0f172a;--radius:.75rem;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.t2 h1,.t2 h2,.t2 h3{letter-spacing:-.02em;line-height:1.15}
.t2-header{position:sticky;top:0;z-index:5;background:var(--night);color:#e2e8f0}
.t2-header-in{display:flex;align-items:center;gap:1.5rem;padding-top:.85rem;padding-bottom:.85rem}
.t2-brand{display:flex;align-items:center;gap:.6rem;font-weight:800;text-decoration:none;color:#fff}
.t2-mark{display:grid;place-items:center;width:2.2rem;height:2.2rem;border-radius:.6rem;background:var(--brand);color:var(--on-brand);font-weight:800;font-size:.85rem;object-fit:cover}
.t2-nav{display:flex;gap:1.25rem;margin-left:auto;font-size:.95rem}
.t2-nav a{text-decoration:none;color:#cbd5e1}
.t2-nav a:hover{color:#fff}
.t2-nav{align-items:center}
.t2-login{border:1px solid #334155;border-radius:999px;padding:.35rem .9rem;text-decoration:none;font-size:.9rem;color:#fff;white-space:nowrap}
.t2-hero{background:linear-gradient(135deg,var(--night) 0,#134e4a 100%);color:#e2e8f0;padding:5rem 0}
.t2-hero-in{display:grid;gap:2.5rem;align-items:center}
@media(min-width:900px){.t2-hero-in{grid-template-columns:1.3fr 1fr}}
.t2-hero h1{font-size:clamp(2.3rem,5.5vw,3.6rem);margin:0;color:#fff}
.t2-hero h1 span{color:#5eead4}
.t2-tagline{font-size:1.15rem;color:#cbd5e1;max-width:34rem;margin:1.25rem 0 0}
.t2-ctas{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:2rem}
.t2 .ps-btn{border-radius:999px}
.t2-btn-line{border-color:#5eead4;color:#fff}
.t2-panel{background:rgba(255,255,255,.06);border:1px solid rgba(255,255,255,.15);border-radius:1.25rem;padding:1.75rem}
.t2-panel-kicker{margin:0;color:#5eead4;font-weight:700;font-size:.85rem;text-transform:uppercase;letter-spacing:.1em}
.t2-panel-title{margin:.4rem 0 1rem;font-size:1.3rem;font-weight:700;color:#fff}
.t2-panel ul{list-style:none;padding:0;margin:0 0 1.5rem;display:grid;gap:.5rem}
.t2-panel li{display:flex;gap:.5rem;align-items:center;color:#e2e8f0}
.t2-panel li svg{color:#5eead4}
.t2-wide{width:100%}
.t2-section{padding:4.5rem 0}
.t2-kicker{margin:0;color:var(--brand-ink);font-weight:700;text-transform:uppercase;letter-spacing:.12em;font-size:.8rem}
.t2-h2{font-size:clamp(1.8rem,4vw,2.5rem);margin:.3rem 0 2rem}
.t2-programs{list-style:none;margin:0;padding:0;display:grid;gap:1rem}
.t2-program{display:grid;grid-template-columns:auto 1fr;gap:1rem 1.5rem;align-items:center;padding:1.5rem;border:1px solid var(--line);border-radius:var(--radius)}
.t2-program>.ps-btn{grid-column:1/-1;justify-self:start}
@media(min-width:760px){.t2-program{grid-template-columns:auto 1fr auto}.t2-program>.ps-btn{grid-column:auto}}
.t2-num{font-size:2rem;font-weight:800;color:var(--brand)}
.t2-program h3{margin:0 0 .25rem;font-size:1.25rem}
.t2-program p{margin:0;color:var(--muted)}
.t2-btn-small{min-height:2.4rem;padding:.4rem 1rem;border-color:var(--brand);color:var(--brand-ink)}
.t2-dark{background:var(--night);color:#e2e8f0}
.t2-dark .t2-h2{color:#fff}
.t2-dark .t2-kicker{color:#5eead4}
.t2-why{display:grid;gap:1.5rem;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr))}
.t2-why-item{padding:1.5rem;border-radius:var(--radius);background:rgba(255,255,255,.05);border-top:3px solid #5eead4}
.t2-why-item h3{margin:0 0 .4rem;color:#fff}
.t2-why-item p{margin:0;color:#94a3b8}
.t2-tint{background:#f0fdfa}
.t2-quotes{display:flex;gap:1.25rem;overflow-x:auto;scroll-snap-type:x mandatory;padding-bottom:.5rem}
.t2-quote{flex:0 0 min(22rem,85%);scroll-snap-align:start;margin:0;background:#fff;border-radius:var(--radius);padding:1.5rem;box-shadow:0 8px 24px rgba(15,23,42,.08)}
.t2-result{margin:0;font-weight:800;color:var(--brand-ink);font-size:1.1rem}
.t2-quote blockquote{margin:.6rem 0 1rem;color:var(--muted)}
.t2-quote figcaption{display:flex;gap:.6rem;align-items:center}
.t2-contact{display:grid;gap:2.5rem}
@media(min-width:860px){.t2-contact{grid-template-columns:1fr 1.2fr}}
.t2-contact .ps-contact-list a{color:#fff}
.t2-form-card{background:#fff;color:var(--ink);border-radius:1rem;padding:1.75rem}
.t2-footer{background:#020617;color:#94a3b8;padding:1.5rem 0;font-size:.9rem}
@media(max-width:760px){.t2-hero{padding:3.5rem 0}}
`;
