import { useCallback, useEffect, useRef, useState } from "react";
import { useLocation } from "react-router";
import { Dialog as D } from "radix-ui";
import { Bell, CheckCheck, CreditCard, Hourglass, LayoutTemplate, RotateCcw, Trash2, X } from "lucide-react";
import { badgeLabel, isUnread, newestShown, type AdminNotifications } from "#common/admin-feed.ts";
import { formatRupees } from "#common/format.ts";
import { Button } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { formatTime } from "#common/time.ts";

/** Spec §9: admins' notifications are polled every 45 s (and on each route change). */
export const POLL_MS = 45_000;

async function call(path: string, init?: RequestInit): Promise<AdminNotifications | null> {
  try {
    const res = await fetch(path, {
      ...init,
      headers: { accept: "application/json", ...(init?.body ? { "content-type": "application/json" } : {}) },
    });
    return res.ok ? ((await res.json()) as AdminNotifications) : null;
  } catch {
    return null;
  }
}

/**
 * The admin's notifications, kept fresh: polled every 45 s and on every route change. The read
 * and cleared times live on the server, so they follow the admin from browser to browser.
 */
export function useAdminNotifications(initial: AdminNotifications) {
  const [data, setData] = useState(initial);
  const location = useLocation();
  const first = useRef(true);

  const refresh = useCallback(async () => {
    const next = await call("/api/admin/notifications?limit=10");
    // A failed poll keeps what is shown; the next one tries again.
    if (next) setData(next);
  }, []);

  useEffect(() => {
    const timer = setInterval(() => void refresh(), POLL_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  useEffect(() => {
    // The page's own data came with this route; later routes poll.
    if (first.current) {
      first.current = false;
      return;
    }
    void refresh();
  }, [location.pathname, refresh]);

  const markAllRead = useCallback(async () => {
    const seen = newestShown(data);
    setData((d) => ({
      ...d,
      unread: { purchases: 0, selections: 0, notices: 0, total: 0 },
      state: { ...d.state, ...maxTimes(d.state, seen) },
    }));
    const res = await call("/api/admin/notifications/read", { method: "POST", body: JSON.stringify(seen) });
    if (res) await refresh();
  }, [data, refresh]);

  const clearAll = useCallback(async () => {
    setData((d) => ({
      ...d,
      purchases: [],
      selections: [],
      notices: [],
      unread: { purchases: 0, selections: 0, notices: 0, total: 0 },
    }));
    await call("/api/admin/notifications/clear", { method: "POST" });
    await refresh();
  }, [refresh]);

  return { data, refresh, markAllRead, clearAll };
}

function maxTimes(state: AdminNotifications["state"], seen: ReturnType<typeof newestShown>) {
  const max = (a: string | null, b: string | null) => (!a ? b : !b ? a : a > b ? a : b);
  return {
    purchasesSeenAt: max(state.purchasesSeenAt, seen.purchasesSeenAt),
    selectionsSeenAt: max(state.selectionsSeenAt, seen.selectionsSeenAt),
    noticesSeenAt: max(state.noticesSeenAt, seen.noticesSeenAt),
  };
}

/** Spec §9: purchase amounts are minor units, shown divided by 100. */
function money(minor: number, currency: string): string {
  return currency === "INR" ? formatRupees(minor / 100) : `${(minor / 100).toFixed(2)} ${currency}`;
}

interface Entry {
  kind: "purchase" | "template" | "trial" | "refund";
  id: string;
  at: string;
  unread: boolean;
  title: string;
  lines: string[];
}

/** Trials and refunds are told apart from paid purchases by their icon and tag. */
const LOOKS = {
  purchase: { icon: CreditCard, tone: "bg-success/15 text-success", tag: null, tagTone: "" },
  template: { icon: LayoutTemplate, tone: "bg-primary/10 text-primary", tag: null, tagTone: "" },
  trial: {
    icon: Hourglass,
    tone: "bg-amber-500/15 text-amber-700",
    tag: "Trial",
    // Small uppercase text needs 4.5:1 on any row tint (axe found 4.16:1): solid pale ground, dark ink.
    tagTone: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
  },
  refund: {
    icon: RotateCcw,
    tone: "bg-destructive/10 text-destructive",
    tag: "Refund",
    tagTone: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
  },
} as const;

function entries(data: AdminNotifications, readState: AdminNotifications["state"]): Entry[] {
  const list: Entry[] = [
    ...data.purchases.map((p) => ({
      kind: "purchase" as const,
      id: p._id,
      at: p.createdAt,
      unread: isUnread(p.createdAt, readState.purchasesSeenAt, readState.purchasesClearedAt),
      title: `${p.centerId?.instituteName ?? p.instituteName} purchased ${p.plan}`,
      lines: [
        `${money(p.amount, p.currency)} · ${p.centerId?.domain ?? p.domain}`,
        `${p.createdByName} (${p.createdByEmail})`,
      ],
    })),
    ...data.selections.map((s) => ({
      kind: "template" as const,
      id: s._id,
      at: s.appliedAt,
      unread: isUnread(s.appliedAt, readState.selectionsSeenAt, readState.selectionsClearedAt),
      title: `${s.centerId.instituteName} applied template ${s.templateId}`,
      lines: [s.centerId.domain ?? "", s.businessName ? `${s.businessName} (${s.businessEmail})` : ""].filter(Boolean),
    })),
    ...(data.notices ?? []).map((n) => ({
      kind: n.kind === "refund" ? ("refund" as const) : ("trial" as const),
      id: n._id,
      at: n.createdAt,
      unread: isUnread(n.createdAt, readState.noticesSeenAt, readState.noticesClearedAt),
      title: n.title,
      lines: [n.body],
    })),
  ];
  return list.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
}

/** The header's bell (unread badge, capped at 99) and the right-side notifications panel. */
export function NotificationsBell({ initial }: { initial: AdminNotifications }) {
  const { data, markAllRead, clearAll } = useAdminNotifications(initial);
  const [open, setOpen] = useState(false);
  // What was unread when the panel opened stays marked while it is open.
  const [openedWith, setOpenedWith] = useState<AdminNotifications["state"] | null>(null);
  const badge = badgeLabel(data.unread.total);

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) {
      setOpenedWith(data.state);
      // Spec §4: opening the panel stores the newest times and resets the count.
      if (data.unread.total > 0) void markAllRead();
    } else setOpenedWith(null);
  };

  const list = entries(data, openedWith ?? data.state);

  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      <D.Trigger asChild>
        <button
          type="button"
          className="relative rounded-md p-2 text-muted-foreground hover:bg-muted hover:text-foreground"
          aria-label={badge ? `Notifications, ${data.unread.total} unread` : "Notifications"}
          data-testid="notifications-bell"
        >
          <Bell className="size-5" aria-hidden />
          {badge && (
            <span
              data-testid="notifications-badge"
              className="absolute -right-0.5 -top-0.5 grid h-5 min-w-5 place-items-center rounded-full bg-destructive px-1 text-[0.65rem] font-semibold leading-none text-destructive-foreground"
            >
              {badge}
            </span>
          )}
        </button>
      </D.Trigger>
      <D.Portal>
        <D.Overlay className="fixed inset-0 z-50 bg-black/40" />
        <D.Content
          className="fixed inset-y-0 right-0 z-50 flex w-full max-w-sm flex-col border-l bg-card shadow-xl focus:outline-none"
          aria-describedby={undefined}
        >
          <div className="flex items-center justify-between gap-2 border-b px-4 py-3">
            <D.Title className="text-base font-semibold">Notifications</D.Title>
            <D.Close
              className="rounded-md p-1.5 text-muted-foreground hover:bg-muted hover:text-foreground"
              aria-label="Close"
            >
              <X className="size-4" aria-hidden />
            </D.Close>
          </div>
          <div className="flex items-center gap-2 border-b px-4 py-2">
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setOpenedWith(null);
                void markAllRead();
              }}
              disabled={list.length === 0}
            >
              <CheckCheck className="size-4" aria-hidden /> Mark all read
            </Button>
            <Button variant="ghost" size="sm" onClick={() => void clearAll()} disabled={list.length === 0}>
              <Trash2 className="size-4" aria-hidden /> Clear all
            </Button>
          </div>
          <div className="flex-1 overflow-y-auto">
            {list.length === 0 ? (
              <p className="px-4 py-12 text-center text-sm text-muted-foreground">No recent notifications</p>
            ) : (
              <ul className="divide-y" aria-label="Recent notifications">
                {list.map((entry) => {
                  const look = LOOKS[entry.kind];
                  const Icon = look.icon;
                  return (
                    <li
                      key={`${entry.kind}-${entry.id}`}
                      className={cn("flex gap-3 px-4 py-3", entry.unread && "bg-primary/5")}
                      data-unread={entry.unread || undefined}
                      data-kind={entry.kind}
                    >
                      <span className={cn("mt-0.5 grid size-8 shrink-0 place-items-center rounded-full", look.tone)}>
                        <Icon className="size-4" aria-hidden />
                      </span>
                      <div className="min-w-0 flex-1 text-sm">
                        <p className="font-medium">
                          {look.tag && (
                            <span className={cn("mr-1.5 rounded px-1.5 py-0.5 text-[0.65rem] uppercase", look.tagTone)}>
                              {look.tag}
                            </span>
                          )}
                          {entry.title}
                          {entry.unread && <span className="sr-only"> (new)</span>}
                        </p>
                        {entry.lines.map((line) => (
                          <p
                            key={line}
                            className={cn("text-xs text-muted-foreground", entry.kind === "purchase" && "truncate")}
                          >
                            {line}
                          </p>
                        ))}
                        <p className="mt-0.5 text-xs text-muted-foreground">
                          <time dateTime={entry.at}>{formatTime(entry.at, "dayTime")}</time>
                        </p>
                      </div>
                      {entry.unread && <span className="mt-2 size-2 shrink-0 rounded-full bg-primary" aria-hidden />}
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}
