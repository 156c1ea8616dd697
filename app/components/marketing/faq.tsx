import { useId, useRef, useState } from "react";
import { ChevronDown } from "lucide-react";
import { cn } from "~/lib/cn";

export interface FaqItem {
  question: string;
  answer: string;
}

/**
 * An accordion that keeps one answer open at a time. On devices that can hover, pointing at a
 * question opens it (spec §2); a click, Enter or Space toggles it everywhere.
 */
export function Faq({ items, className }: { items: readonly FaqItem[]; className?: string }) {
  const [open, setOpen] = useState<number | null>(null);
  // A mouse user who hovers a question and then clicks it means "open", not "close again".
  const openedByHover = useRef(false);
  const id = useId();
  const canHover = () =>
    typeof window !== "undefined" && window.matchMedia("(hover: hover) and (pointer: fine)").matches;
  return (
    <div className={cn("divide-y rounded-2xl border bg-card", className)}>
      {items.map((item, index) => {
        const expanded = open === index;
        const buttonId = `${id}-q${index}`;
        const panelId = `${id}-a${index}`;
        return (
          <div
            key={item.question}
            onMouseEnter={() => {
              if (!canHover() || open === index) return;
              openedByHover.current = true;
              setOpen(index);
            }}
            data-state={expanded ? "open" : "closed"}
          >
            <h3>
              <button
                type="button"
                id={buttonId}
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={(event) => {
                  // event.detail is 0 for Enter/Space: the keyboard always toggles.
                  const keep = expanded && openedByHover.current && event.detail > 0;
                  openedByHover.current = false;
                  setOpen(expanded && !keep ? null : index);
                }}
                className="flex w-full items-center justify-between gap-4 rounded-2xl px-5 py-4 text-left font-medium hover:text-primary"
              >
                {item.question}
                <ChevronDown
                  className={cn("size-4 shrink-0 text-muted-foreground transition-transform", expanded && "rotate-180")}
                  aria-hidden
                />
              </button>
            </h3>
            <div
              id={panelId}
              role="region"
              aria-labelledby={buttonId}
              hidden={!expanded}
              className="px-5 pb-5 text-sm leading-relaxed text-muted-foreground"
            >
              {item.answer}
            </div>
          </div>
        );
      })}
    </div>
  );
}
