import type { TemplateId } from "../../tenants/types";

/** A small drawing of each template's layout in its colours (no screenshots to keep up to date). */
export function TemplateThumbnail({ id, colors }: { id: TemplateId; colors: [string, string, string] }) {
  const [a, b, c] = colors;
  const common = {
    viewBox: "0 0 240 150",
    className: "h-auto w-full",
    role: "img",
    "aria-label": `Preview of ${id}`,
  } as const;
  switch (id) {
    case "t1":
      return (
        <svg {...common}>
          <rect width="240" height="150" fill={c} />
          <rect width="240" height="8" fill={a} />
          <rect y="8" width="240" height="14" fill="#fff" />
          <rect y="22" width="240" height="2" fill={b} />
          <rect x="80" y="36" width="80" height="10" rx="2" fill={a} />
          <rect x="60" y="52" width="120" height="4" rx="2" fill="#9ca3af" />
          <rect x="92" y="62" width="26" height="9" rx="2" fill={a} />
          <rect x="122" y="62" width="26" height="9" rx="2" fill="#fff" stroke={a} />
          {[20, 90, 160].map((x) => (
            <g key={x}>
              <rect x={x} y="86" width="60" height="46" rx="3" fill="#fff" stroke="#e5dfd0" />
              <rect x={x} y="86" width="60" height="3" fill={b} />
              <rect x={x + 8} y="96" width="36" height="5" rx="2" fill={a} />
              <rect x={x + 8} y="106" width="44" height="3" rx="1.5" fill="#cbd5e1" />
              <rect x={x + 8} y="112" width="40" height="3" rx="1.5" fill="#cbd5e1" />
            </g>
          ))}
        </svg>
      );
    case "t2":
      return (
        <svg {...common}>
          <rect width="240" height="150" fill="#fff" />
          <rect width="240" height="78" fill={a} />
          <rect x="16" y="20" width="90" height="10" rx="2" fill="#fff" />
          <rect x="16" y="34" width="70" height="10" rx="2" fill={b} />
          <rect x="16" y="50" width="80" height="4" rx="2" fill="#64748b" />
          <rect x="16" y="60" width="28" height="9" rx="4.5" fill={b} />
          <rect x="140" y="16" width="84" height="52" rx="6" fill="#1e293b" stroke="#334155" />
          <rect x="148" y="52" width="68" height="9" rx="4.5" fill={b} />
          {[90, 108, 126].map((y) => (
            <g key={y}>
              <rect x="16" y={y} width="208" height="14" rx="3" fill="#fff" stroke="#e2e8f0" />
              <rect x="22" y={y + 4} width="10" height="6" rx="1" fill={b} />
              <rect x="38" y={y + 5} width="80" height="4" rx="2" fill="#0f172a" />
            </g>
          ))}
        </svg>
      );
    case "t3":
      return (
        <svg {...common}>
          <rect width="240" height="150" fill={c} />
          <rect width="240" height="70" fill={a} />
          <rect
            x="16"
            y="14"
            width="40"
            height="8"
            fill="#facc15"
            stroke={b}
            strokeWidth="1.5"
            transform="rotate(-3 36 18)"
          />
          <rect x="16" y="30" width="150" height="16" fill="#fff" />
          <rect x="16" y="54" width="30" height="9" fill={b} />
          <rect x="50" y="54" width="30" height="9" fill="#fff" stroke={b} strokeWidth="1.5" />
          {[16, 90, 164].map((x) => (
            <g key={x}>
              <rect x={x + 4} y="90" width="60" height="44" fill={a} />
              <rect x={x} y="86" width="60" height="44" fill="#fff" stroke={b} strokeWidth="2" />
              <rect x={x + 8} y="96" width="38" height="7" fill={b} />
              <rect x={x + 8} y="108" width="44" height="3" fill="#9ca3af" />
            </g>
          ))}
        </svg>
      );
    case "t4":
      return (
        <svg {...common}>
          <rect width="240" height="150" fill={b} />
          <circle cx="22" cy="14" r="5" fill="none" stroke={a} />
          <rect x="30" y="11" width="40" height="5" rx="2" fill={c} />
          <rect x="50" y="32" width="140" height="9" rx="2" fill={c} />
          <rect x="50" y="45" width="110" height="9" rx="2" fill={c} />
          <rect x="50" y="59" width="140" height="1" fill={a} />
          <rect x="50" y="66" width="30" height="9" rx="4.5" fill={a} />
          <rect x="84" y="66" width="30" height="9" rx="4.5" fill="none" stroke="#d6cdb8" />
          {[88, 104, 120].map((y) => (
            <g key={y}>
              <rect x="50" y={y} width="140" height="1" fill="#e4dccb" />
              <rect x="50" y={y + 4} width="60" height="5" rx="2" fill={a} />
              <rect x="50" y={y + 11} width="110" height="2.5" rx="1" fill="#9ca3af" />
            </g>
          ))}
        </svg>
      );
  }
}
