import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import { CatalogBlocks } from "./catalog";

describe("an institute site's Mock Tests", () => {
  it("opens the free test (the lead magnet) on Register, coming back to the test after (issue 38 §6)", () => {
    const html = renderToStaticMarkup(
      <CatalogBlocks
        catalog={{
          live: [],
          courses: [],
          materials: [],
          tests: [{ id: "t-1", title: "JEE Main Mock 1", description: "", price: 0, type: "test" }],
        }}
      />,
    );
    expect(html).toContain(
      `href="/auth?role=student&amp;mode=register&amp;redirectTo=${encodeURIComponent("/student/mock-tests/t-1")}"`,
    );
    expect(html).toContain(">Take the free test<");
  });
});
