import type { ReactNode } from "react";
import { cn } from "~/lib/cn";

/** A form's refusal in the product's words, read out when it appears. */
export function FormError({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <p role="alert" className={cn("rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive", className)}>
      {children}
    </p>
  );
}

/** What a form did (a link or code sent), read out when it appears. */
export function FormNote({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <p role="status" className={cn("rounded-md bg-muted p-3 text-sm", className)}>
      {children}
    </p>
  );
}
