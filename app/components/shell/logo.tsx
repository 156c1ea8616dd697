import { cn } from "~/lib/cn";

/** The Pathshala mark. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 64 64" aria-hidden className={cn("size-7 shrink-0", className)}>
      <rect width="64" height="64" rx="14" fill="var(--primary)" />
      <path
        d="M18 46V18h15a10 10 0 0 1 0 20h-7v8z"
        fill="none"
        stroke="var(--primary-foreground)"
        strokeWidth="6"
        strokeLinejoin="round"
      />
      <circle cx="46" cy="44" r="4" fill="#fb923c" />
    </svg>
  );
}

export function Logo({ className }: { className?: string }) {
  return (
    <span className={cn("inline-flex items-center gap-2 text-lg font-bold tracking-tight", className)}>
      <LogoMark />
      Pathshala
    </span>
  );
}
