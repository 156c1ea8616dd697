import { useId, useState } from "react";
import { Delete } from "lucide-react";
import { applyKey, sanitizeNumeric, type KeypadKey } from "~/lib/mock-tests/keypad";
import { cn } from "~/lib/cn";

const ROWS: { key: KeypadKey; label: string; name?: string }[][] = [
  [
    { key: "7", label: "7" },
    { key: "8", label: "8" },
    { key: "9", label: "9" },
  ],
  [
    { key: "4", label: "4" },
    { key: "5", label: "5" },
    { key: "6", label: "6" },
  ],
  [
    { key: "1", label: "1" },
    { key: "2", label: "2" },
    { key: "3", label: "3" },
  ],
  [
    { key: "0", label: "0" },
    { key: ".", label: ".", name: "Decimal point" },
    { key: "-", label: "\u2212", name: "Minus" },
  ],
];

const keyClasses =
  "flex h-11 items-center justify-center rounded-md border border-slate-300 bg-slate-50 text-base font-medium hover:bg-slate-100 active:bg-slate-200 disabled:opacity-50 dark:border-slate-600 dark:bg-slate-800";

/**
 * A numerical answer: the on-screen keypad (0–9, '.', '−', Backspace, Clear All). In the exam the
 * physical keyboard is off for the field, as on the NTA screen; practice mode turns it on, and a
 * student who needs it (accessibility) can turn it on too.
 */
export function NumericAnswer({
  value,
  onChange,
  keyboard,
  disabled,
}: {
  value: string;
  onChange: (value: string) => void;
  /** The physical keyboard is on from the start (practice mode). */
  keyboard: boolean;
  disabled?: boolean;
}) {
  const id = useId();
  const [typing, setTyping] = useState(keyboard);
  return (
    <div className="grid max-w-64 gap-3">
      <label htmlFor={id} className="text-sm font-medium">
        Your answer
      </label>
      <input
        id={id}
        type="text"
        value={value}
        readOnly={!typing || disabled}
        disabled={disabled}
        inputMode={typing ? "decimal" : "none"}
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => onChange(sanitizeNumeric(event.target.value))}
        className={cn(
          "h-11 rounded-md border border-input bg-background px-3 text-lg tabular-nums",
          "focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring",
        )}
      />
      <div className="grid grid-cols-3 gap-2" role="group" aria-label="Keypad">
        <button
          type="button"
          className={cn(keyClasses, "col-span-3 gap-2 text-sm")}
          disabled={disabled}
          onClick={() => onChange(applyKey(value, "backspace"))}
        >
          <Delete className="size-4" aria-hidden /> Backspace
        </button>
        {ROWS.flat().map(({ key, label, name }) => (
          <button
            key={key}
            type="button"
            className={keyClasses}
            disabled={disabled}
            aria-label={name}
            onClick={() => onChange(applyKey(value, key))}
          >
            {label}
          </button>
        ))}
        <button
          type="button"
          className={cn(keyClasses, "col-span-3 text-sm")}
          disabled={disabled}
          onClick={() => onChange(applyKey(value, "clear"))}
        >
          Clear All
        </button>
      </div>
      {!keyboard && (
        <label className="flex items-center gap-2 text-xs text-muted-foreground">
          <input type="checkbox" checked={typing} onChange={(event) => setTyping(event.target.checked)} />
          Type with my keyboard (accessibility)
        </label>
      )}
    </div>
  );
}
