import "katex/dist/katex.min.css";
import { renderInline, renderMarkdown } from "#common/mock-tests/render.ts";
import { Rendered } from "~/components/mock-tests/question-content";

/**
 * Question text, options and solutions as students see them: Markdown with KaTeX, rendered by the
 * same function on the server and in the browser (the renderer shows raw HTML as text).
 */
export function MathText({
  source,
  inline = false,
  className,
}: {
  source: string;
  inline?: boolean;
  className?: string;
}) {
  return (
    <Rendered html={inline ? renderInline(source) : renderMarkdown(source)} inline={inline} className={className} />
  );
}
