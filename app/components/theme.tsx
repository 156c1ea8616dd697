import { useSyncExternalStore } from "react";
import { Monitor, Moon, Sun } from "lucide-react";
import { cn } from "~/lib/cn";
import type { Theme } from "~/lib/viewer";

/**
 * Runs in <head> before paint. The stored choice arrives as data-theme (rendered by the server
 * from the cookie); "system" follows the OS, live.
 */
export const THEME_SCRIPT = `(function(){try{var d=document.documentElement,m=matchMedia('(prefers-color-scheme: dark)');function a(){var t=d.getAttribute('data-theme');d.classList.toggle('dark',t==='dark'||(t==='system'&&m.matches))}a();m.addEventListener('change',a);window.__applyTheme=a}catch(e){}})()`;

const THEMES: { value: Theme; label: string; Icon: typeof Sun }[] = [
  { value: "light", label: "Light", Icon: Sun },
  { value: "dark", label: "Dark", Icon: Moon },
  { value: "system", label: "System", Icon: Monitor },
];

const listeners = new Set<() => void>();

export function setTheme(theme: Theme) {
  document.cookie = `pathshala_theme=${theme}; Path=/; Max-Age=${60 * 60 * 24 * 365}; SameSite=Lax`;
  document.documentElement.setAttribute("data-theme", theme);
  (window as unknown as { __applyTheme?: () => void }).__applyTheme?.();
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function readTheme(): Theme {
  const value = document.documentElement.getAttribute("data-theme");
  return value === "light" || value === "dark" ? value : "system";
}

/** The stored choice; every switcher on the page shows the same one. */
export function useTheme(initial: Theme): Theme {
  return useSyncExternalStore(subscribe, readTheme, () => initial);
}

/** Light / dark / system, stored in a cookie so the server renders the right theme. */
export function ThemeSwitcher({ initial, className }: { initial: Theme; className?: string }) {
  const theme = useTheme(initial);
  return (
    <div
      role="radiogroup"
      aria-label="Theme"
      className={cn("inline-flex rounded-full border bg-background p-0.5", className)}
      onKeyDown={(event) => {
        // Arrow keys move the choice, as in any radio group.
        const step =
          event.key === "ArrowRight" || event.key === "ArrowDown"
            ? 1
            : event.key === "ArrowLeft" || event.key === "ArrowUp"
              ? -1
              : 0;
        if (!step) return;
        event.preventDefault();
        const index = THEMES.findIndex((t) => t.value === theme);
        const next = THEMES[(index + step + THEMES.length) % THEMES.length].value;
        setTheme(next);
        event.currentTarget.querySelector<HTMLButtonElement>(`[data-value="${next}"]`)?.focus();
      }}
    >
      {THEMES.map(({ value, label, Icon }) => (
        <button
          key={value}
          type="button"
          role="radio"
          aria-checked={theme === value}
          tabIndex={theme === value ? 0 : -1}
          data-value={value}
          aria-label={label}
          title={label}
          onClick={() => setTheme(value)}
          className={cn(
            "grid size-8 place-items-center rounded-full text-muted-foreground transition-colors hover:text-foreground",
            theme === value && "bg-muted text-foreground",
          )}
        >
          <Icon className="size-3.5" aria-hidden />
        </button>
      ))}
    </div>
  );
}
