import { useCallback, useEffect, useRef, useState } from "react";

/** Renew this long before the link runs out. */
const RENEW_BEFORE_MS = 90_000;
/** Errors in a row after which the player stops trying (e.g. access has really ended). */
const MAX_RECOVERIES = 3;

interface Link {
  url: string;
  expiresAt: string | null;
}

/**
 * An inline player for a protected video. Its signed link lives only minutes, so the player
 * fetches a fresh one (`GET /api/content/{id}/file-url`) before it runs out and swaps it in at the
 * same position (still playing if it was); if a fetch fails anyway (a laptop woke up after an
 * hour) it renews and resumes. Seeking is instant: the server answers byte ranges.
 */
export function SignedVideo({
  contentId,
  url,
  expiresAt,
  title,
}: {
  contentId: string;
  url: string;
  expiresAt: string | null;
  title: string;
}) {
  const video = useRef<HTMLVideoElement>(null);
  // The element keeps its own source: a new link from the page's data must not restart playback.
  const [initial] = useState(url);
  const link = useRef<Link>({ url, expiresAt });
  const recoveries = useRef(0);
  const [failed, setFailed] = useState(false);

  const renew = useCallback(async (): Promise<Link> => {
    const res = await fetch(`/api/content/${contentId}/file-url`, { headers: { accept: "application/json" } });
    if (!res.ok) throw new Error(`file-url ${res.status}`);
    const body = (await res.json()) as Link;
    link.current = body;
    return body;
  }, [contentId]);

  /** Points the player at `next` where it was, playing if it was. */
  const swap = useCallback((next: string) => {
    const el = video.current;
    if (!el) return;
    const at = el.currentTime;
    const playing = !el.paused && !el.ended;
    const rate = el.playbackRate;
    el.addEventListener(
      "loadedmetadata",
      () => {
        if (at > 0) el.currentTime = at;
        el.playbackRate = rate;
        if (playing) void el.play().catch(() => {});
      },
      { once: true },
    );
    el.src = next;
  }, []);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    let stopped = false;
    const schedule = (delay?: number) => {
      const expires = link.current.expiresAt ? Date.parse(link.current.expiresAt) : Date.now() + 5 * 60_000;
      const wait = delay ?? Math.max(5_000, expires - Date.now() - RENEW_BEFORE_MS);
      timer = setTimeout(async () => {
        try {
          const next = await renew();
          if (!stopped) swap(next.url);
          schedule();
        } catch {
          // Offline or signed out: try again shortly; the error handler covers a fetch that fails meanwhile.
          schedule(30_000);
        }
      }, wait);
    };
    schedule();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [renew, swap]);

  const onError = useCallback(async () => {
    if (recoveries.current >= MAX_RECOVERIES) {
      setFailed(true);
      return;
    }
    recoveries.current += 1;
    try {
      swap((await renew()).url);
    } catch {
      setFailed(true);
    }
  }, [renew, swap]);

  return (
    <div className="grid gap-2">
      <video
        ref={video}
        src={initial}
        controls
        preload="metadata"
        playsInline
        controlsList="nodownload"
        onContextMenu={(e) => e.preventDefault()}
        onError={() => void onError()}
        onPlaying={() => {
          recoveries.current = 0;
          setFailed(false);
        }}
        aria-label={title}
        className="aspect-video w-full rounded-lg bg-black"
      />
      {failed && (
        <p role="alert" className="text-sm text-destructive">
          The video could not be loaded. Please check your connection and reload the page.
        </p>
      )}
    </div>
  );
}
