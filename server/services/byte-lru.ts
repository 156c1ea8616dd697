/** An LRU map bounded by the total size of its values, for caches of rendered pages. */
export class ByteLru<V extends { bytes: number }> {
  private readonly map = new Map<string, V>();
  private total = 0;
  private readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get(key: string): V | undefined {
    const value = this.map.get(key);
    if (!value) return undefined;
    // Recency matters only once half the budget is used; below it a hit costs one lookup.
    if (this.total > this.maxBytes * 0.5) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    if (value.bytes > this.maxBytes) return;
    this.map.set(key, value);
    this.total += value.bytes;
    while (this.total > this.maxBytes) {
      const oldest = this.map.keys().next().value as string;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const old = this.map.get(key);
    if (!old) return;
    this.map.delete(key);
    this.total -= old.bytes;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }

  get size(): number {
    return this.map.size;
  }

  get bytes(): number {
    return this.total;
  }
}
