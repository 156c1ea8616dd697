import { cn } from "~/lib/cn";

/**
 * A table in a box that scrolls sideways on a phone. The box is focusable (tabindex 0) and named,
 * so a keyboard can reach and scroll it (axe "scrollable-region-focusable", issue 38 §6).
 */
export function Table({
  className,
  scrollLabel,
  ...props
}: React.TableHTMLAttributes<HTMLTableElement> & { scrollLabel?: string }) {
  return (
    <div
      className="w-full overflow-x-auto rounded-lg border focus-visible:outline-2 focus-visible:outline-ring"
      tabIndex={0}
      role="region"
      aria-label={scrollLabel ?? props["aria-label"] ?? "Table"}
    >
      <table className={cn("w-full caption-bottom text-sm", className)} {...props} />
    </div>
  );
}
export const THead = (props: React.HTMLAttributes<HTMLTableSectionElement>) => (
  <thead className="bg-muted/60 text-left" {...props} />
);
export const TBody = (props: React.HTMLAttributes<HTMLTableSectionElement>) => (
  <tbody className="divide-y" {...props} />
);
export const Tr = ({ className, ...props }: React.HTMLAttributes<HTMLTableRowElement>) => (
  <tr className={cn("hover:bg-muted/30", className)} {...props} />
);
export const Th = ({ className, ...props }: React.ThHTMLAttributes<HTMLTableCellElement>) => (
  <th
    scope="col"
    className={cn("whitespace-nowrap px-4 py-3 font-medium text-muted-foreground", className)}
    {...props}
  />
);
export const Td = ({ className, ...props }: React.TdHTMLAttributes<HTMLTableCellElement>) => (
  <td className={cn("px-4 py-3 align-middle", className)} {...props} />
);
