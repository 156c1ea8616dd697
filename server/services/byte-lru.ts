/**
 * A map bounded by the total size of its values, for caches of rendered pages. Like Lru, it
 * approximates least-recently-used with a second chance: a hit marks its entry, and eviction
 * moves marked entries to the back once instead of dropping them, so hits never reorder the map.
 */
export class ByteLru<V extends { bytes: number }> {
  private readonly map = new Map<string, { value: V; used: boolean }>();
  private total = 0;
  private readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get(key: string): V | undefined {
    const slot = this.map.get(key);
    if (!slot) return undefined;
    slot.used = true;
    return slot.value;
  }

  set(key: string, value: V): void {
    this.delete(key);
    if (value.bytes > this.maxBytes) return;
    this.map.set(key, { value, used: false });
    this.total += value.bytes;
    while (this.total > this.maxBytes) {
      const [oldest, slot] = this.map.entries().next().value as [string, { value: V; used: boolean }];
      this.map.delete(oldest);
      if (slot.used) {
        slot.used = false;
        this.map.set(oldest, slot);
      } else {
        this.total -= slot.value.bytes;
      }
    }
  }

  delete(key: string): void {
    const old = this.map.get(key);
    if (!old) return;
    this.map.delete(key);
    this.total -= old.value.bytes;
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
