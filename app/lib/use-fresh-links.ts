import { useEffect } from "react";
import { useRevalidator } from "react-router";

/** How long before a signed link runs out the page fetches fresh ones. */
const RENEW_BEFORE_MS = 60_000;
/** setTimeout's longest delay. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Keeps a page's time-bound data current without a reload: reloads its loader data shortly
 * before the earliest signed link (`expiries`) runs out, and just after a live class's link is
 * due to appear (`reveals`).
 */
export function useFreshLinks(
  expiries: readonly (string | null | undefined)[],
  reveals: readonly (string | null | undefined)[] = [],
) {
  const revalidator = useRevalidator();
  const times = [
    ...expiries.filter(Boolean).map((t) => Date.parse(t!) - RENEW_BEFORE_MS),
    ...reveals.filter(Boolean).map((t) => Date.parse(t!) + 1000),
  ];
  const next = times.length ? Math.min(...times) : null;
  useEffect(() => {
    if (next === null || Number.isNaN(next)) return;
    const timer = setTimeout(
      () => void revalidator.revalidate(),
      Math.min(MAX_DELAY_MS, Math.max(5_000, next - Date.now())),
    );
    return () => clearTimeout(timer);
  }, [next, revalidator]);
}
