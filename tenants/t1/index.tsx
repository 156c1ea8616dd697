import type { SiteData } from "../types";
import { CatalogBlocks } from "../shared/catalog";
import { ContactList, InstituteMark, telHref } from "../shared/contact";
import { EnquiryButton, EnquiryDialog, EnquiryForm } from "../shared/enquiry-form";
import { BookIcon, ChartIcon, TrophyIcon, UsersIcon } from "../shared/icons";
import { Stars } from "../shared/stars";
import { WHY_US } from "../shared/why-us";
import { brandStyle } from "../shared/brand";
import { SiteNav, type SiteLink } from "../shared/site-nav";
import { programFocus, siteLinks } from "../defaults";

const WHY_ICONS = [TrophyIcon, UsersIcon, ChartIcon, BookIcon];

const LINKS: SiteLink[] = [
  { href: "#programs", label: "Programs" },
  { href: "#why-us", label: "Why us" },
  { href: "#testimonials", label: "Results" },
  { href: "#contact", label: "Contact" },
  { href: "/auth?role=student", label: "Student login", className: "t1-login" },
];

/** Heritage: classic and trustworthy. Navy and gold, serif headings, a centred hero. */
export function Template1({ data }: { data: SiteData }) {
  const year = new Date().getFullYear();
  return (
    <div className="ps-site t1" data-template="t1" style={brandStyle(data.brandColor)}>
      {(data.phone || data.email) && (
        <div className="t1-topbar">
          <div className="ps-wrap t1-topbar-in">
            {data.phone && <a href={telHref(data.phone)}>{data.phone}</a>}
            {data.email && <a href={`mailto:${data.email}`}>{data.email}</a>}
          </div>
        </div>
      )}
      <header className="t1-header">
        <a className="ps-skip" href="#programs">
          Skip to content
        </a>
        <div className="ps-wrap t1-header-in ps-header-row">
          <a href="/" className="t1-brand ps-brand">
            <InstituteMark data={data} className="t1-mark" />
            <span>{data.instituteName}</span>
          </a>
          <SiteNav links={siteLinks(LINKS, data)} className="t1-nav" />
        </div>
      </header>

      <main>
        <section className="t1-hero">
          <div className="ps-wrap">
            <p className="t1-eyebrow">{programFocus(data.programs).join(" · ")}</p>
            <h1>{data.instituteName}</h1>
            <p className="t1-tagline">{data.tagline}</p>
            <div className="t1-ctas">
              <EnquiryButton kind="Apply Now" className="ps-btn ps-btn-primary" />
              <EnquiryButton kind="Book Demo" className="ps-btn t1-btn-outline" />
              <EnquiryButton kind="Enquire" className="ps-btn t1-btn-ghost" />
            </div>
          </div>
        </section>

        <section id="programs" className="t1-section">
          <div className="ps-wrap">
            <h2 className="t1-h2">Our Programs</h2>
            <p className="t1-lead">Structured courses, taught by people who have walked the path.</p>
            <div className="t1-programs">
              {data.programs.map((p) => (
                <article key={p.name} className="t1-program">
                  <h3>{p.name}</h3>
                  {p.description && <p>{p.description}</p>}
                  <EnquiryButton kind="Enquire" className="ps-link" />
                </article>
              ))}
            </div>
          </div>
        </section>

        <section id="why-us" className="t1-section t1-alt">
          <div className="ps-wrap">
            <h2 className="t1-h2">Why choose us</h2>
            <div className="t1-why">
              {WHY_US.map((w, i) => {
                const Icon = WHY_ICONS[i];
                return (
                  <div key={w.title} className="t1-why-item">
                    <span className="t1-why-icon">
                      <Icon className="ps-icon" />
                    </span>
                    <div>
                      <h3>{w.title}</h3>
                      <p>{w.text}</p>
                    </div>
                  </div>
                );
              })}
            </div>
          </div>
        </section>

        <section id="classes" className="t1-section">
          <div className="ps-wrap">
            <h2 className="t1-h2">Classes &amp; materials</h2>
            <CatalogBlocks catalog={data.catalog} />
          </div>
        </section>

        {data.testimonials.length > 0 && (
          <section id="testimonials" className="t1-section t1-alt">
            <div className="ps-wrap">
              <h2 className="t1-h2">What our students say</h2>
              <div className="t1-quotes">
                {data.testimonials.map((t) => (
                  <figure key={t.name} className="t1-quote">
                    <Stars />
                    <blockquote>“{t.text}”</blockquote>
                    <figcaption>
                      <strong>{t.name}</strong>
                      {t.result && <span>{t.result}</span>}
                    </figcaption>
                  </figure>
                ))}
              </div>
            </div>
          </section>
        )}

        <section id="contact" className="t1-section">
          <div className="ps-wrap t1-contact">
            <div>
              <h2 className="t1-h2 t1-left">Visit or write to us</h2>
              <p className="t1-lead t1-left">Admissions are open. We reply to every enquiry within a day.</p>
              <ContactList data={data} />
            </div>
            <div className="t1-form-card">
              <h3>Send an enquiry</h3>
              <EnquiryForm programs={data.programs} idPrefix="contact" />
            </div>
          </div>
        </section>
      </main>

      <footer className="t1-footer">
        <div className="ps-wrap">
          © {year} {data.instituteName}. All rights reserved.
        </div>
      </footer>
      <EnquiryDialog programs={data.programs} />
    </div>
  );
}

export const T1_CSS = `
.t1{--brand:#1e3a5f;--brand-ink:#1e3a5f;--on-brand:#fff;--gold:#c9a227;--ink:#1f2937;--muted:#5b6472;--paper:#fbf9f4;--card:#fff;--line:#e5dfd0;--radius:.4rem;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
.t1 h1,.t1 h2,.t1 h3{font-family:Georgia,"Times New Roman",serif;color:var(--brand-ink);line-height:1.2}
.t1-topbar{background:var(--brand);color:var(--on-brand);font-size:.85rem}
.t1-topbar-in{display:flex;justify-content:flex-end;gap:1.5rem;padding-top:.35rem;padding-bottom:.35rem}
.t1-header{background:#fff;border-bottom:3px solid var(--gold)}
.t1-header-in{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:1rem;padding-top:1rem;padding-bottom:1rem}
.t1-brand{display:flex;align-items:center;gap:.75rem;font-family:Georgia,serif;font-size:1.35rem;font-weight:700;color:var(--brand-ink);text-decoration:none}
.t1-mark{display:grid;place-items:center;width:2.6rem;height:2.6rem;border-radius:50%;background:var(--brand);color:var(--gold);font-size:1rem;object-fit:cover}
.t1-nav{display:flex;flex-wrap:wrap;gap:1.25rem;font-size:.95rem}
.t1-nav a{text-decoration:none;color:var(--ink)}
.t1-nav a:hover{color:var(--brand-ink);text-decoration:underline}
.t1-nav .t1-login{font-weight:700;color:var(--brand-ink)}
.t1-hero{text-align:center;padding:5rem 0 4.5rem;background:radial-gradient(ellipse at top,#fff 0,var(--paper) 70%);border-bottom:1px solid var(--line)}
.t1-eyebrow{letter-spacing:.25em;text-transform:uppercase;color:var(--gold);font-weight:700;font-size:.8rem;margin:0}
.t1-hero h1{font-size:clamp(2.2rem,6vw,3.8rem);margin:.6rem 0 1rem}
.t1-tagline{max-width:40rem;margin:0 auto;color:var(--muted);font-size:1.15rem}
.t1-ctas{display:flex;flex-wrap:wrap;justify-content:center;gap:.75rem;margin-top:2rem}
.t1 .ps-btn{border-radius:var(--radius)}
.t1-btn-outline{border-color:var(--brand);color:var(--brand-ink);background:#fff}
.t1-btn-ghost{color:var(--brand-ink);text-decoration:underline;text-underline-offset:4px}
.t1-section{padding:4.5rem 0}
.t1-alt{background:#fff;border-top:1px solid var(--line);border-bottom:1px solid var(--line)}
.t1-h2{text-align:center;font-size:clamp(1.7rem,4vw,2.4rem);margin:0 0 .5rem}
.t1-lead{text-align:center;color:var(--muted);margin:0 auto 2.5rem;max-width:36rem}
.t1-left{text-align:left;margin-left:0}
.t1-programs{display:grid;gap:1.5rem;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr))}
.t1-program{background:#fff;border:1px solid var(--line);border-top:4px solid var(--gold);padding:1.75rem;border-radius:var(--radius);display:flex;flex-direction:column;gap:.5rem}
.t1-program h3{margin:0;font-size:1.3rem}
.t1-program p{margin:0;color:var(--muted);flex:1}
.t1-why{display:grid;gap:2rem;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));margin-top:2.5rem}
.t1-why-item{display:flex;gap:1rem}
.t1-why-icon{display:grid;place-items:center;width:3rem;height:3rem;border-radius:50%;border:2px solid var(--gold);color:var(--brand-ink);flex-shrink:0}
.t1-why-item h3{margin:0 0 .25rem;font-size:1.15rem}
.t1-why-item p{margin:0;color:var(--muted)}
.t1 .ps-catalog{margin-top:2rem}
.t1-quotes{display:grid;gap:1.5rem;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr));margin-top:2.5rem}
.t1-quote{margin:0;padding:1.75rem;background:var(--paper);border-left:4px solid var(--gold);border-radius:var(--radius)}
.t1-quote blockquote{margin:.75rem 0 1rem;font-family:Georgia,serif;font-style:italic;font-size:1.05rem}
.t1-quote figcaption{display:grid;font-size:.9rem}
.t1-quote figcaption span{color:var(--muted)}
.t1-contact{display:grid;gap:2.5rem;grid-template-columns:1fr}
@media(min-width:860px){.t1-contact{grid-template-columns:1fr 1.1fr}}
.t1-form-card{background:#fff;border:1px solid var(--line);border-radius:var(--radius);padding:1.75rem;box-shadow:0 10px 30px rgba(30,58,95,.08)}
.t1-form-card h3{margin:0 0 1rem}
.t1-footer{background:var(--brand);color:var(--on-brand);text-align:center;padding:1.5rem 0;font-size:.9rem}
@media(max-width:640px){.t1-topbar-in{justify-content:center;flex-wrap:wrap;gap:.25rem 1rem}.t1-nav{gap:.75rem 1rem;font-size:.9rem}.t1-hero{padding:3.5rem 0}}
`;
