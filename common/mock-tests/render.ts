import MarkdownIt from "markdown-it";
import katexPlugin from "@vscode/markdown-it-katex";

// The plugin is CommonJS with `exports.default`: bundlers hand over the function, Node the exports object.
const markdownItKatex =
  typeof katexPlugin === "function" ? katexPlugin : (katexPlugin as unknown as { default: typeof katexPlugin }).default;

/**
 * Question text, options and solutions are Markdown with $…$ and $$…$$ LaTeX, written by an
 * institute's team and read by students: the same renderer runs on the server (the test screen's
 * first paint, review pages) and in the browser (the question editor's preview). Raw HTML in the
 * Markdown is shown as text, never run; links open only http(s); math that does not parse is shown
 * as its source in red rather than breaking the question.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, breaks: true }).use(markdownItKatex, {
  throwOnError: false,
  errorColor: "#b91c1c",
  // KaTeX's own commands only: no \href, \url, \includegraphics or HTML extensions.
  trust: false,
  strict: "ignore",
  maxSize: 20,
  maxExpand: 200,
});

const SAFE_LINK = /^https?:\/\//i;
/** Where the server keeps questions' figures (POST /api/question-images): on the site's own domain. */
export const QUESTION_IMAGE_PATH = /^\/media\/question-images\/[\w-]+\/[\w-]+\.webp$/;
markdown.validateLink = (url) => SAFE_LINK.test(url.trim()) || QUESTION_IMAGE_PATH.test(url.trim());

// A figure fits the width of the screen it is on (exam.css) and loads when it comes into view.
const defaultImage = markdown.renderer.rules.image!;
markdown.renderer.rules.image = (tokens, index, options, env, self) => {
  tokens[index].attrSet("loading", "lazy");
  tokens[index].attrSet("decoding", "async");
  return defaultImage(tokens, index, options, env, self);
};

/** A block of Markdown (question text, a solution) as HTML. */
export function renderMarkdown(source: string): string {
  return markdown.render(source);
}

/** One line (an option) as HTML, without a wrapping paragraph. */
export function renderInline(source: string): string {
  return markdown.renderInline(source);
}
