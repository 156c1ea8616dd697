import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { findListForObject } from "./plain-objects.ts";
import { parseInput } from "./storable.ts";

const Schema = v.object({
  name: v.optional(v.string()),
  profile: v.optional(v.nullable(v.object({ city: v.optional(v.string()) }))),
  rows: v.optional(v.array(v.object({ text: v.optional(v.string()) }))),
  tags: v.optional(v.record(v.string(), v.string())),
  either: v.optional(v.union([v.array(v.string()), v.object({ a: v.optional(v.string()) })])),
  piped: v.optional(
    v.pipe(
      v.looseObject({}),
      v.transform((o) => ({ ...o })),
    ),
  ),
});

describe("a list where an object belongs", () => {
  it("is found at the top and anywhere inside, as valibot alone would take it", () => {
    // What valibot does by itself: an object of optional fields takes a list.
    expect(v.safeParse(Schema, []).success).toBe(true);
    expect(findListForObject(Schema, [])).toEqual([]);
    expect(findListForObject(Schema, [{ name: "x" }])).toEqual([]);
    expect(findListForObject(Schema, { profile: [] })).toEqual(["profile"]);
    expect(findListForObject(Schema, { rows: [{}, []] })).toEqual(["rows", 1]);
    expect(findListForObject(Schema, { tags: [] })).toEqual(["tags"]);
    expect(findListForObject(Schema, { piped: [] })).toEqual(["piped"]);
    expect(findListForObject(v.strictObject({}), [])).toEqual([]);
  });

  it("is not found where the schema takes a list, or where there is none", () => {
    expect(findListForObject(Schema, {})).toBeNull();
    expect(findListForObject(Schema, { rows: [{ text: "a" }], profile: null, either: ["a"] })).toBeNull();
    expect(findListForObject(Schema, { either: { a: "b" } })).toBeNull();
    expect(findListForObject(v.array(v.string()), [])).toBeNull();
    expect(findListForObject(v.unknown(), [])).toBeNull();
  });

  it("is a 400 naming the field, before anything else is read", () => {
    expect(parseInput(Schema, [])).toEqual({
      success: false,
      issues: [{ message: "The request body must be a JSON object, not a list." }],
    });
    expect(parseInput(Schema, { rows: [[]] })).toEqual({
      success: false,
      issues: [{ field: "rows.0", message: "rows.0 must be an object, not a list." }],
    });
    expect(parseInput(Schema, { name: "Asha" })).toEqual({ success: true, output: { name: "Asha" } });
  });
});
