import { LRUCache } from "lru-cache";

/**
 * A least-recently-used cache bounded by the total size of its values (rendered pages, stamped
 * PDFs, file blocks): `bytes` is each value's size. A value larger than the whole budget is not
 * kept. A value that grew must be deleted and set again: lru-cache weighs a value only when it
 * first stores that object.
 */
export function byteBoundedCache<V extends { bytes: number }>(maxBytes: number): LRUCache<string, V> {
  return new LRUCache<string, V>({
    maxSize: Math.max(1, maxBytes),
    sizeCalculation: (value) => Math.max(1, value.bytes),
  });
}
