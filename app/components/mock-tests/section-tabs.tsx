import {
  QUESTION_STATES,
  QUESTION_STATE_LABELS,
  sectionCounts,
  type ExamState,
} from "#common/mock-tests/exam-state.ts";
import { cn } from "~/lib/cn";
import { StateShape } from "./state-shape";

/**
 * The sections across the top; hovering (or focusing) one shows its counts (mock-tests.md §2.2).
 * The current section is highlighted.
 */
export function SectionTabs({ state, onSection }: { state: ExamState; onSection: (section: number) => void }) {
  return (
    <nav aria-label="Sections" className="border-b bg-card">
      <ul className="flex flex-wrap gap-1 px-2 pt-2">
        {state.sections.map((section, index) => {
          const current = index === state.position.section;
          const counts = sectionCounts(state, index);
          const descriptionId = `section-counts-${index}`;
          return (
            <li key={section.name} className="group relative">
              <button
                type="button"
                onClick={() => onSection(index)}
                aria-current={current ? "true" : undefined}
                aria-describedby={descriptionId}
                className={cn(
                  "rounded-t-md border border-b-0 px-2 py-1.5 text-xs font-medium sm:px-3 sm:py-2 sm:text-sm",
                  "focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-ring",
                  current ? "border-sky-700 bg-sky-700 text-white" : "bg-muted hover:bg-muted/70",
                )}
              >
                {section.name}
              </button>
              <div
                id={descriptionId}
                role="tooltip"
                className="pointer-events-none absolute left-0 top-full z-30 mt-1 hidden w-64 rounded-md border bg-card p-3 text-xs shadow-lg group-focus-within:block group-hover:block"
              >
                <p className="mb-2 font-semibold">{section.name}</p>
                <ul className="grid gap-1.5">
                  {QUESTION_STATES.map((s) => (
                    <li key={s} className="flex items-center gap-2">
                      <StateShape state={s} className="size-6 text-xs">
                        {counts[s]}
                      </StateShape>
                      {QUESTION_STATE_LABELS[s]}
                    </li>
                  ))}
                </ul>
              </div>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
