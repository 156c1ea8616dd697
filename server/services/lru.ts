/**
 * A bounded map that keeps recently used entries; bounds memory when keys come from the outside
 * (Host headers). Recency is approximated with a second chance (the CLOCK policy): a hit only
 * marks its entry, and eviction sends marked entries to the back once instead of dropping them.
 * So a hit never reorders the map, which on a large cache cost more than the lookup itself.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; used: boolean }>();
  private readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  get(key: K): V | undefined {
    const slot = this.map.get(key);
    if (!slot) return undefined;
    slot.used = true;
    return slot.value;
  }

  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, { value, used: false });
    while (this.map.size > this.capacity) {
      const [oldest, slot] = this.map.entries().next().value as [K, { value: V; used: boolean }];
      this.map.delete(oldest);
      if (slot.used) {
        slot.used = false;
        this.map.set(oldest, slot);
      }
    }
  }

  delete(key: K): void {
    this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }
}
