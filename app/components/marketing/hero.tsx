import { useEffect, useState, useSyncExternalStore } from "react";
import { preload } from "react-dom";
import { Link } from "react-router";
import { ArrowRight, Sparkles } from "lucide-react";
import { buttonClasses } from "~/components/ui/button";
import { cn } from "~/lib/cn";
import { HERO_WIDTHS, ResponsiveImage } from "./responsive-image";
import { TRIAL_START_PATH } from "#common/trial.ts";

export const TYPEWRITER_WORDS = ["All Boards.", "All Subjects.", "All Students."] as const;
/** Spec §9: 150 ms per character, 2 s pause, 5 s per background. */
export const TYPE_MS = 150;
export const PAUSE_MS = 2000;
export const ROTATE_MS = 5000;
const HERO_IMAGES = [1, 2, 3, 4, 5].map((n) => `/images/hero/hero-${n}`);

const REDUCED = "(prefers-reduced-motion: reduce)";

function subscribeReducedMotion(onChange: () => void) {
  const query = window.matchMedia(REDUCED);
  query.addEventListener("change", onChange);
  return () => query.removeEventListener("change", onChange);
}

/** Whether the visitor asked for less motion (follows the OS setting live). */
export function useReducedMotion(): boolean {
  return useSyncExternalStore(
    subscribeReducedMotion,
    () => window.matchMedia(REDUCED).matches,
    () => false,
  );
}

/**
 * Types each word, pauses, erases it and types the next. The server renders the first word in
 * full, so nothing shifts and visitors who prefer less motion simply read it.
 */
function Typewriter() {
  const reduced = useReducedMotion();
  const [text, setText] = useState<string>(TYPEWRITER_WORDS[0]);
  useEffect(() => {
    if (reduced) return;
    let word = 0;
    let length: number = TYPEWRITER_WORDS[0].length;
    let erasing = true;
    let timer: ReturnType<typeof setTimeout>;
    const step = () => {
      length += erasing ? -1 : 1;
      setText(TYPEWRITER_WORDS[word].slice(0, length));
      let wait = TYPE_MS;
      if (erasing && length === 0) {
        erasing = false;
        word = (word + 1) % TYPEWRITER_WORDS.length;
      } else if (!erasing && length === TYPEWRITER_WORDS[word].length) {
        erasing = true;
        wait = PAUSE_MS;
      }
      timer = setTimeout(step, wait);
    };
    timer = setTimeout(step, PAUSE_MS);
    return () => clearTimeout(timer);
  }, [reduced]);
  return (
    <>
      <span
        aria-hidden="true"
        data-testid="typewriter"
        className="block min-h-[1.15em] whitespace-nowrap text-orange-300"
      >
        {reduced ? TYPEWRITER_WORDS[0] : text}
        <span className="ml-0.5 inline-block h-[0.9em] w-[3px] translate-y-[0.08em] animate-pulse bg-orange-300 motion-reduce:hidden" />
      </span>
      <span className="sr-only">{TYPEWRITER_WORDS.join(" ")}</span>
    </>
  );
}

/**
 * Five backgrounds cross-fading every 5 s. Only the first is in the server's HTML (eager, high
 * priority: it is the page's largest paint); the others are added once the page has loaded.
 */
function RotatingBackground() {
  const reduced = useReducedMotion();
  const [current, setCurrent] = useState(0);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    if (reduced) return;
    const start = () => setReady(true);
    if (document.readyState === "complete") {
      const t = setTimeout(start, 1000);
      return () => clearTimeout(t);
    }
    window.addEventListener("load", start, { once: true });
    return () => window.removeEventListener("load", start);
  }, [reduced]);

  useEffect(() => {
    if (!ready || reduced) return;
    const timer = setInterval(() => {
      // Hidden tabs do not need to rotate.
      if (document.visibilityState === "visible") setCurrent((i) => (i + 1) % HERO_IMAGES.length);
    }, ROTATE_MS);
    return () => clearInterval(timer);
  }, [ready, reduced]);

  const shown = ready && !reduced ? HERO_IMAGES : HERO_IMAGES.slice(0, 1);
  return (
    <div className="absolute inset-0 -z-10 overflow-hidden bg-indigo-950" aria-hidden="true">
      {shown.map((base, index) => (
        <div
          key={base}
          data-active={index === current}
          className={cn(
            "absolute inset-0 transition-opacity duration-1000",
            index === current ? "opacity-100" : "opacity-0",
          )}
        >
          <ResponsiveImage
            base={base}
            widths={HERO_WIDTHS}
            sizes="100vw"
            width={1920}
            height={1080}
            alt=""
            eager={index === 0}
            className="size-full object-cover object-[70%_50%]"
          />
        </div>
      ))}
      {/* Keeps the white text readable (contrast AA) over every background. */}
      <div className="absolute inset-0 bg-gradient-to-r from-slate-950/90 via-slate-950/70 to-slate-950/30" />
    </div>
  );
}

export function Hero() {
  // Announced at the top of <head>, before the scripts: the first background is the page's
  // largest paint. (A browser without AVIF ignores this and takes the WebP from <picture>.)
  preload(`${HERO_IMAGES[0]}-1024.avif`, {
    as: "image",
    fetchPriority: "high",
    type: "image/avif",
    imageSrcSet: HERO_WIDTHS.map((w) => `${HERO_IMAGES[0]}-${w}.avif ${w}w`).join(", "),
    imageSizes: "100vw",
  });
  return (
    <section className="relative isolate overflow-hidden text-white">
      <RotatingBackground />
      <div className="animate-rise mx-auto max-w-6xl px-4 pb-20 pt-16 sm:px-6 md:pb-28 md:pt-24">
        <p className="inline-flex items-center gap-2 rounded-full border border-white/25 bg-white/10 px-3 py-1 text-sm font-medium">
          <Sparkles className="size-4 text-orange-300" aria-hidden /> For JEE, NEET and Boards coaching institutes
        </p>
        <h1 className="mt-6 max-w-3xl text-4xl font-bold leading-[1.1] tracking-tight sm:text-5xl md:text-6xl">
          <span className="block">One platform.</span>
          <Typewriter />
        </h1>
        <p className="mt-6 max-w-xl text-lg text-slate-100">
          Launch your institute's branded website, sell courses, run live classes and take payments: everything set up
          in under 24 hours.
        </p>
        <div className="mt-8 flex flex-wrap gap-3">
          <Link to={TRIAL_START_PATH} className={buttonClasses("accent", "lg")}>
            Start Free Trial <ArrowRight className="size-4" aria-hidden />
          </Link>
          <Link to="/invest" className={buttonClasses("onDark", "lg")}>
            Invest Now
          </Link>
        </div>
        <p className="mt-4 text-sm text-slate-200">14-day free trial · Free setup · No credit card needed</p>
      </div>
    </section>
  );
}
