import { useRef, useState } from "react";
import { ImagePlus, LoaderCircle } from "lucide-react";
import { Button } from "~/components/ui/button";
import { onDesk } from "~/lib/mock-tests/area-paths";

/** The image types an author may pick (the server checks the bytes, not this list). */
const ACCEPT = "image/png,image/jpeg,image/webp,image/svg+xml,.svg";

/**
 * Uploads a figure (POST /api/question-images) into the bank the editor's form names (its `bank`
 * field, else `bank`) and hands back the Markdown that shows it, for the field it belongs to.
 */
export function ImageButton({
  label,
  bank,
  desk,
  compact = false,
  onInsert,
}: {
  /** The button's accessible name, e.g. "Add an image to the question". */
  label: string;
  bank?: string;
  desk?: string | null;
  compact?: boolean;
  onInsert: (markdown: string) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function upload(file: File) {
    setBusy(true);
    setError(null);
    try {
      const chosen = input.current?.form?.elements.namedItem("bank");
      const bankValue = chosen instanceof HTMLSelectElement ? chosen.value : bank;
      const body = new FormData();
      body.set("file", file);
      const res = await fetch(
        onDesk(`/api/question-images${bankValue ? `?bank=${encodeURIComponent(bankValue)}` : ""}`, desk),
        {
          method: "POST",
          body,
          credentials: "same-origin",
        },
      );
      const answer = (await res.json().catch(() => ({}))) as { url?: string; error?: string };
      if (!res.ok || !answer.url) throw new Error(answer.error ?? "The image could not be uploaded. Please try again.");
      onInsert(`![Figure](${answer.url})`);
    } catch (failure) {
      setError(
        failure instanceof TypeError
          ? "The image could not be uploaded. Check your connection and try again."
          : (failure as Error).message,
      );
    } finally {
      setBusy(false);
      if (input.current) input.current.value = "";
    }
  }

  return (
    <span className="inline-flex flex-col items-start gap-1">
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) void upload(file);
        }}
      />
      <Button
        type="button"
        variant="outline"
        size={compact ? "icon" : "sm"}
        aria-label={label}
        title={label}
        disabled={busy}
        onClick={() => input.current?.click()}
      >
        {busy ? (
          <LoaderCircle className="size-4 animate-spin" aria-hidden />
        ) : (
          <ImagePlus className="size-4" aria-hidden />
        )}
        {!compact && (busy ? "Uploading..." : "Add image")}
      </Button>
      {error && (
        <span role="alert" className="text-sm text-destructive">
          {error}
        </span>
      )}
    </span>
  );
}

/** Markdown with a figure added on a line of its own at the end. */
export function withFigure(text: string, figure: string): string {
  if (!text.trim()) return figure;
  return `${text.replace(/\s+$/, "")}\n\n${figure}`;
}
