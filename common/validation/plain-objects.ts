import * as v from "valibot";

/**
 * valibot's object schemas (and records) take any value whose `typeof` is "object", a list
 * included: `[]` passes an object of optional fields as `{}` (PUT /api/settings once read `[]` as
 * "every setting back to its default"). `findListForObject` walks a schema beside the input and
 * gives the path of the first list that stands where the schema expects an object, or null.
 * A union is walked into the options that take the input: a list is refused only when every
 * option that takes it takes it for an object.
 */

type Path = (string | number)[];

interface Walked {
  type: string;
  entries?: Record<string, Walked>;
  rest?: Walked;
  value?: Walked;
  item?: Walked;
  items?: Walked[];
  wrapped?: Walked;
  options?: Walked[];
  getter?: (input: unknown) => Walked;
}

const OBJECTS = new Set(["object", "loose_object", "strict_object", "object_with_rest"]);
const WRAPPERS = new Set([
  "optional",
  "exact_optional",
  "nullable",
  "nullish",
  "undefinedable",
  "non_optional",
  "non_nullable",
  "non_nullish",
]);
const MAX_DEPTH = 64;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

export function findListForObject(schema: v.GenericSchema, input: unknown): Path | null {
  return walk(schema as unknown as Walked, input, []);
}

function walk(schema: Walked, input: unknown, path: Path): Path | null {
  if (path.length > MAX_DEPTH || input === null || typeof input !== "object") return null;
  if (OBJECTS.has(schema.type) || schema.type === "record") {
    if (Array.isArray(input)) return path;
    const value = input as Record<string, unknown>;
    if (schema.entries) {
      for (const [key, entry] of Object.entries(schema.entries)) {
        const found = walk(entry, value[key], [...path, key]);
        if (found) return found;
      }
    }
    const rest = schema.type === "record" ? schema.value : schema.rest;
    if (rest && isPlainObject(value)) {
      for (const [key, item] of Object.entries(value)) {
        if (schema.entries && key in schema.entries) continue;
        const found = walk(rest, item, [...path, key]);
        if (found) return found;
      }
    }
    return null;
  }
  if (WRAPPERS.has(schema.type) && schema.wrapped) return walk(schema.wrapped, input, path);
  if (schema.type === "lazy" && schema.getter) return walk(schema.getter(input), input, path);
  if (Array.isArray(input) && schema.type === "array" && schema.item) {
    for (let i = 0; i < input.length; i++) {
      const found = walk(schema.item, input[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (Array.isArray(input) && schema.items) {
    for (let i = 0; i < Math.min(input.length, schema.items.length); i++) {
      const found = walk(schema.items[i], input[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  // A variant's options are objects told apart by one key: no list is any of them.
  if (schema.type === "variant" && Array.isArray(input)) return path;
  if (schema.options && (schema.type === "union" || schema.type === "variant")) {
    let first: Path | null = null;
    for (const option of schema.options) {
      if (!v.is(option as unknown as v.GenericSchema, input)) continue;
      const found = walk(option, input, path);
      if (!found) return null;
      first ??= found;
    }
    return first;
  }
  if (schema.options && schema.type === "intersect") {
    for (const option of schema.options) {
      const found = walk(option, input, path);
      if (found) return found;
    }
  }
  return null;
}
