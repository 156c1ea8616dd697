import { Lru } from "./lru.ts";

/** An Lru bounded by the total size of its values, for caches of rendered pages and files. */
export class ByteLru<V extends { bytes: number }> extends Lru<string, V> {
  constructor(maxBytes: number) {
    super(maxBytes, (value) => value.bytes);
  }

  get bytes(): number {
    return this.weight;
  }
}
