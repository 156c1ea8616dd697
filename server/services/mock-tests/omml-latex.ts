import { DOMParser, XMLSerializer } from "@xmldom/xmldom";

/**
 * Word's equations (Office Math, `<m:oMath>`) as LaTeX, for the Word import (issue 38 §1): a
 * question bank typed in Word keeps its equations as text a student's screen renders with KaTeX.
 * The common structures are read (fractions, scripts, roots, brackets, sums and integrals,
 * functions, accents, bars, matrices); text inside any other is kept as it is.
 */

const M = "http://schemas.openxmlformats.org/officeDocument/2006/math";
const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";

type El = Element;

const SYMBOLS: Record<string, string> = {
  α: "\\alpha",
  β: "\\beta",
  γ: "\\gamma",
  δ: "\\delta",
  ε: "\\epsilon",
  θ: "\\theta",
  λ: "\\lambda",
  μ: "\\mu",
  π: "\\pi",
  ρ: "\\rho",
  σ: "\\sigma",
  τ: "\\tau",
  φ: "\\phi",
  ω: "\\omega",
  Δ: "\\Delta",
  Ω: "\\Omega",
  Σ: "\\Sigma",
  Π: "\\Pi",
  Θ: "\\Theta",
  "×": "\\times",
  "÷": "\\div",
  "±": "\\pm",
  "∓": "\\mp",
  "≤": "\\le",
  "≥": "\\ge",
  "≠": "\\ne",
  "≈": "\\approx",
  "∞": "\\infty",
  "→": "\\to",
  "⇒": "\\Rightarrow",
  "∝": "\\propto",
  "·": "\\cdot",
  "°": "^{\\circ}",
  "∂": "\\partial",
  "∇": "\\nabla",
  "−": "-",
  "∈": "\\in",
  "∫": "\\int",
  "∑": "\\sum",
  "∏": "\\prod",
  "∮": "\\oint",
  "√": "\\sqrt{}",
  "…": "\\ldots",
  "⋯": "\\cdots",
  "′": "'",
};
const NARY: Record<string, string> = { "∑": "\\sum", "∏": "\\prod", "∫": "\\int", "∬": "\\iint", "∮": "\\oint" };
const ACCENTS: Record<string, string> = {
  "̇": "\\dot",
  "̈": "\\ddot",
  "̂": "\\hat",
  "̃": "\\tilde",
  "⃗": "\\vec",
  "̄": "\\bar",
};

const children = (el: El, name?: string): El[] =>
  Array.from(el.childNodes).filter(
    (n): n is El => n.nodeType === 1 && (!name || ((n as El).namespaceURI === M && (n as El).localName === name)),
  );
const child = (el: El, name: string) => children(el, name)[0];
const prop = (el: El | undefined, pr: string, name: string) => {
  const props = el && child(el, pr);
  const value = props && child(props, name);
  return value?.getAttributeNS(M, "val") ?? value?.getAttribute("m:val") ?? undefined;
};

function text(value: string): string {
  return [...value]
    .map((ch) => (SYMBOLS[ch] ? `${SYMBOLS[ch]} ` : ch))
    .join("")
    .replace(/\s+$/, "");
}

function all(el: El | undefined): string {
  if (!el) return "";
  return children(el).map(node).join("");
}

function group(latex: string): string {
  return `{${latex}}`;
}

function node(el: El): string {
  if (el.namespaceURI !== M) return "";
  switch (el.localName) {
    case "r":
      return children(el, "t")
        .map((t) => text(t.textContent ?? ""))
        .join("");
    case "f": {
      const num = all(child(el, "num"));
      const den = all(child(el, "den"));
      return prop(el, "fPr", "type") === "lin" ? `${num}/${den}` : `\\frac${group(num)}${group(den)}`;
    }
    case "sSup":
      return `${group(all(child(el, "e")))}^${group(all(child(el, "sup")))}`;
    case "sSub":
      return `${group(all(child(el, "e")))}_${group(all(child(el, "sub")))}`;
    case "sSubSup":
      return `${group(all(child(el, "e")))}_${group(all(child(el, "sub")))}^${group(all(child(el, "sup")))}`;
    case "sPre":
      return `{}_${group(all(child(el, "sub")))}^${group(all(child(el, "sup")))}${all(child(el, "e"))}`;
    case "rad": {
      const degree = all(child(el, "deg"));
      return `\\sqrt${degree ? `[${degree}]` : ""}${group(all(child(el, "e")))}`;
    }
    case "d": {
      const open = prop(el, "dPr", "begChr") ?? "(";
      const close = prop(el, "dPr", "endChr") ?? ")";
      const separator = prop(el, "dPr", "sepChr") ?? ",";
      const inner = children(el, "e").map(all).join(separator);
      const fence = (ch: string, side: "left" | "right") =>
        ch === "" ? `\\${side}.` : `\\${side}${ch === "{" || ch === "}" ? `\\${ch}` : ch === "|" ? "|" : ch}`;
      return `${fence(open, "left")}${inner}${fence(close, "right")}`;
    }
    case "nary": {
      const symbol = prop(el, "naryPr", "chr") ?? "∫";
      const sub = all(child(el, "sub"));
      const sup = all(child(el, "sup"));
      return `${NARY[symbol] ?? text(symbol)}${sub ? `_${group(sub)}` : ""}${sup ? `^${group(sup)}` : ""} ${all(child(el, "e"))}`;
    }
    case "func":
      return `${all(child(el, "fName")).replace(/^(sin|cos|tan|cot|sec|csc|log|ln|exp|lim|max|min)$/, "\\$1")} ${all(child(el, "e"))}`;
    case "limLow":
      return `${all(child(el, "e"))}_${group(all(child(el, "lim")))}`;
    case "limUpp":
      return `${all(child(el, "e"))}^${group(all(child(el, "lim")))}`;
    case "acc": {
      const accent = prop(el, "accPr", "chr") ?? "̂";
      return `${ACCENTS[accent] ?? "\\hat"}${group(all(child(el, "e")))}`;
    }
    case "bar":
      return `\\overline${group(all(child(el, "e")))}`;
    case "m":
      return `\\begin{matrix}${children(el, "mr")
        .map((row) => children(row, "e").map(all).join(" & "))
        .join(" \\\\ ")}\\end{matrix}`;
    case "eqArr":
      return `\\begin{aligned}${children(el, "e").map(all).join(" \\\\ ")}\\end{aligned}`;
    case "box":
    case "borderBox":
    case "groupChr":
    case "phant":
    case "e":
    case "num":
    case "den":
    case "oMath":
      return all(el);
    default:
      return el.localName.endsWith("Pr") ? "" : all(el);
  }
}

/** One equation (`<m:oMath>`) as LaTeX. */
export function ommlToLatex(math: El): string {
  return all(math).replace(/\s+/g, " ").trim();
}

/**
 * A Word document's XML with each equation replaced by a run of its LaTeX between $…$ (or $$…$$
 * for an equation on its own line), which the Word reader then takes as text.
 */
export function equationsAsLatex(documentXml: string): string {
  if (!documentXml.includes("oMath")) return documentXml;
  const doc = new DOMParser().parseFromString(documentXml, "text/xml");
  const replace = (math: El, display: boolean) => {
    const latex = ommlToLatex(math);
    const run = doc.createElementNS(W, "w:r");
    const t = doc.createElementNS(W, "w:t");
    t.setAttribute("xml:space", "preserve");
    t.appendChild(doc.createTextNode(display ? `$$${latex}$$` : `$${latex}$`));
    run.appendChild(t);
    return run;
  };
  for (const para of Array.from(doc.getElementsByTagNameNS(M, "oMathPara")))
    para.parentNode?.replaceChild(replace(para, true), para);
  for (const math of Array.from(doc.getElementsByTagNameNS(M, "oMath")))
    math.parentNode?.replaceChild(replace(math, false), math);
  return new XMLSerializer().serializeToString(doc);
}
