import * as v from "valibot";

/** A list's 1-based page in a query string (`?page=2`), 1 when absent. */
export const pageParam = v.optional(
  v.pipe(
    v.string(),
    v.regex(/^\d{1,6}$/, "Page must be a number"),
    v.transform(Number),
    v.minValue(1, "Page must be 1 or more"),
    v.description("1-based page"),
  ),
  "1",
);

/** The query of a list that is read a page at a time. */
export const PageQuery = v.object({ page: pageParam });
