/**
 * Styles every template shares (form, dialog, catalog, buttons' mechanics); each template adds its
 * own look on top through the --brand, --ink, --paper… variables and its own rules.
 */
export const BASE_CSS = `
*,*::before,*::after{box-sizing:border-box}
html{scroll-behavior:smooth;-webkit-text-size-adjust:100%}
body{margin:0}
img{max-width:100%;display:block}
a{color:inherit}
.ps-site{min-height:100vh;color:var(--ink);background:var(--paper);line-height:1.6}
.ps-wrap{max-width:72rem;margin:0 auto;padding:0 1.25rem}
.ps-icon{width:1.15em;height:1.15em;flex-shrink:0;vertical-align:-.2em}
.ps-muted{color:var(--muted)}
.ps-btn{display:inline-flex;align-items:center;justify-content:center;gap:.5rem;min-height:2.75rem;padding:.65rem 1.25rem;font:inherit;font-weight:600;text-decoration:none;cursor:pointer;border:2px solid transparent;transition:transform .15s,background-color .15s,box-shadow .15s}
.ps-btn:hover{transform:translateY(-1px)}
.ps-btn-primary{background:var(--brand);color:var(--on-brand)}
.ps-link{color:var(--brand-ink,var(--brand));font-weight:600;text-decoration:none}
.ps-link:hover{text-decoration:underline}
:focus-visible{outline:3px solid var(--brand);outline-offset:2px}
.ps-form{display:grid;gap:.9rem}
.ps-field{display:grid;gap:.3rem;min-width:0}
.ps-field-row{display:grid;gap:.9rem;grid-template-columns:1fr}
@media(min-width:640px){.ps-field-row{grid-template-columns:1fr 1fr}}
.ps-field label{font-size:.875rem;font-weight:600}
.ps-field input,.ps-field select,.ps-field textarea{width:100%;font:inherit;padding:.6rem .75rem;border:1px solid var(--line);border-radius:var(--radius,.5rem);background:var(--field,#fff);color:var(--ink)}
.ps-field textarea{resize:vertical}
.ps-form-status{margin:0;min-height:1.2em;font-size:.9rem}
.ps-form-status[data-state=error]{color:#b91c1c}
.ps-form-status[data-state=ok]{color:#15803d;font-weight:600}
.ps-dialog{width:min(34rem,calc(100% - 2rem));border:none;border-radius:var(--radius,.75rem);padding:1.5rem;color:var(--ink);background:var(--paper);box-shadow:0 25px 60px rgba(0,0,0,.35)}
.ps-dialog::backdrop{background:rgba(15,23,42,.6)}
.ps-dialog-head{display:flex;justify-content:space-between;align-items:center;margin-bottom:1rem}
.ps-dialog-head h2{margin:0;font-size:1.35rem}
.ps-dialog-close{font-size:1.6rem;line-height:1;background:none;border:none;cursor:pointer;color:var(--muted);padding:.25rem .5rem}
.ps-catalog{display:grid;gap:1.5rem;grid-template-columns:1fr}
@media(min-width:860px){.ps-catalog{grid-template-columns:repeat(3,1fr)}}
.ps-catalog-col{display:flex;flex-direction:column;gap:.75rem}
.ps-tests{margin-top:1.5rem}
@media(min-width:860px){.ps-tests-list{grid-template-columns:repeat(3,1fr)}}
.ps-catalog-title{display:flex;align-items:center;gap:.5rem;margin:0;font-size:1.1rem}
.ps-catalog-list{list-style:none;margin:0;padding:0;display:grid;gap:.6rem}
.ps-catalog-item{display:grid;gap:.2rem;padding:.8rem .9rem;border:1px solid var(--line);border-radius:var(--radius,.5rem);background:var(--card,#fff)}
.ps-catalog-name{font-weight:600}
.ps-catalog-meta{font-size:.85rem;color:var(--muted)}
.ps-catalog-foot{display:flex;justify-content:space-between;align-items:center;font-size:.9rem}
.ps-price{font-weight:700}
.ps-state{font-weight:600;font-size:.8rem;color:var(--muted);border:1px solid var(--line);border-radius:999px;padding:.1rem .6rem}
.ps-contact-list{list-style:none;margin:0;padding:0;display:grid;gap:.85rem}
.ps-contact-list li{display:flex;gap:.7rem;align-items:flex-start}
.ps-contact-list a{text-decoration:none}
.ps-contact-list a:hover{text-decoration:underline}
.ps-stars{display:flex;gap:.15rem;color:#f59e0b}
.ps-skip{position:absolute;left:-9999px;top:0;padding:.5rem 1rem;background:var(--brand);color:var(--on-brand);z-index:10}
.ps-skip:focus{left:.5rem;top:.5rem}
.ps-menu{display:none;position:relative;margin-left:auto}
.ps-menu>summary{list-style:none;display:inline-flex;align-items:center;gap:.4rem;min-height:2.75rem;padding:.5rem .9rem;border:1px solid currentColor;border-radius:var(--radius,.5rem);cursor:pointer;font-weight:600;white-space:nowrap}
.ps-menu>summary::-webkit-details-marker{display:none}
.ps-menu-panel{position:absolute;right:0;top:calc(100% + .5rem);z-index:20;min-width:14rem;display:grid;padding:.4rem;background:var(--card,#fff);color:var(--ink);border:1px solid var(--line);border-radius:var(--radius,.5rem);box-shadow:0 14px 34px rgba(15,23,42,.22);text-transform:none;letter-spacing:normal;font-weight:600}
.ps-menu-panel a{display:block;padding:.75rem .9rem;text-decoration:none;color:var(--ink);border-radius:.35rem}
.ps-menu-panel a:hover,.ps-menu-panel a:focus-visible{background:var(--paper)}
@media(max-width:760px){.ps-site .ps-menu{display:block}.ps-site .ps-wide-nav{display:none}.ps-site .ps-header-row{flex-wrap:nowrap;gap:.75rem}.ps-site .ps-brand{min-width:0}.ps-site .ps-brand>:first-child{flex-shrink:0}.ps-site .ps-brand>span{overflow:hidden;text-overflow:ellipsis;white-space:nowrap}}
.ps-visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@media(prefers-reduced-motion:reduce){html{scroll-behavior:auto}.ps-btn{transition:none}.ps-btn:hover{transform:none}}
`;
