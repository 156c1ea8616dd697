import { describe, expect, it } from "vitest";
import { renderInline, renderMarkdown } from "./render.ts";

describe("question text rendering", () => {
  it("renders inline and display math with KaTeX, and Markdown around it", () => {
    const html = renderMarkdown("A body of mass $m$ falls **freely**:\n\n$$v^2 = u^2 + 2gh$$");
    expect(html).toContain('<span class="katex">');
    expect(html).toContain('class="katex-display"');
    expect(html).toContain("<strong>freely</strong>");
    expect(html).toMatch(/<annotation encoding="application\/x-tex">v\^2 = u\^2 \+ 2gh\s*<\/annotation>/);
  });

  it("keeps an option on one line", () => {
    expect(renderInline("$\\frac{1}{2}mv^2$")).not.toContain("<p>");
    expect(renderInline("$\\frac{1}{2}mv^2$")).toContain('<span class="katex">');
  });

  it("shows HTML as text and never runs it", () => {
    const html = renderMarkdown('<img src=x onerror="alert(1)"> and <script>alert(2)</script>');
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<script");
    expect(html).toContain("&lt;script&gt;");
  });

  it("refuses links that are not http(s), in Markdown and in math", () => {
    expect(renderMarkdown("[click](javascript:alert(1))")).not.toContain("href");
    expect(renderMarkdown("[notes](https://example.com/notes)")).toContain('href="https://example.com/notes"');
    const math = renderMarkdown("$\\href{javascript:alert(1)}{x}$");
    expect(math).not.toMatch(/href="javascript/);
    expect(math).toContain("color:#b91c1c");
  });

  it("shows math that does not parse as its source instead of failing", () => {
    const html = renderMarkdown("Broken: $\\frac{1}{$ here");
    expect(html).toContain("Broken:");
    expect(html).not.toContain("ParseError: undefined");
  });
});
