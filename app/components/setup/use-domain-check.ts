import { useEffect, useState } from "react";
import { isValidDomain, normaliseDomainInput } from "#common/validation/setup.ts";

export type DomainCheck =
  | { status: "idle" }
  | { status: "checking"; domain: string }
  | { status: "available"; domain: string; renewal: boolean; message?: string }
  | { status: "unavailable"; domain: string; message: string }
  /** The check itself failed (offline…): payment re-checks on the server anyway. */
  | { status: "unknown"; domain: string };

type Answer = Exclude<DomainCheck, { status: "idle" } | { status: "checking" }>;

/** Asks the server, shortly after typing stops, whether the domain can be bought for. */
export function useDomainCheck(raw: string, viewerId: string | null): DomainCheck {
  const domain = normaliseDomainInput(raw);
  const valid = isValidDomain(domain);
  const [answers, setAnswers] = useState<Record<string, Answer>>({});
  const cacheKey = `${viewerId ?? ""}|${domain}`;

  useEffect(() => {
    if (!valid) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      let answer: Answer;
      try {
        const res = await fetch(`/api/payment/domain-availability?domain=${encodeURIComponent(domain)}`, {
          signal: controller.signal,
          headers: { accept: "application/json" },
        });
        const body = (await res.json()) as { available?: boolean; renewal?: boolean; message?: string };
        if (!res.ok) answer = { status: "unknown", domain };
        else if (body.available)
          answer = { status: "available", domain, renewal: !!body.renewal, message: body.message };
        else answer = { status: "unavailable", domain, message: body.message ?? "This domain cannot be used." };
      } catch {
        if (controller.signal.aborted) return;
        answer = { status: "unknown", domain };
      }
      setAnswers((all) => ({ ...all, [cacheKey]: answer }));
    }, 350);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [domain, valid, cacheKey]);

  if (!valid) return { status: "idle" };
  return answers[cacheKey] ?? { status: "checking", domain };
}
