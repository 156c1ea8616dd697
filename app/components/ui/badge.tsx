import { cn } from "~/lib/cn";

const TONES = {
  default: "bg-primary/10 text-primary",
  muted: "bg-muted text-muted-foreground",
  success: "bg-success/15 text-success-ink",
  warning: "bg-accent text-accent-foreground",
  destructive: "bg-destructive/10 text-destructive",
} as const;

export function Badge({
  tone = "default",
  className,
  ...props
}: React.HTMLAttributes<HTMLSpanElement> & { tone?: keyof typeof TONES }) {
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-medium",
        TONES[tone],
        className,
      )}
      {...props}
    />
  );
}
