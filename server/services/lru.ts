/**
 * A bounded map that keeps recently used entries; bounds memory when keys come from the outside
 * (Host headers) or values are large (rendered pages: see ByteLru). Each entry weighs 1 unless a
 * `weigh` function says otherwise, and the total weight stays within `capacity`.
 *
 * Recency is approximated with a second chance (the CLOCK policy): a hit only marks its entry,
 * and eviction sends marked entries to the back once instead of dropping them. So a hit never
 * reorders the map, which on a large cache cost more than the lookup itself.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, { value: V; weight: number; used: boolean }>();
  private readonly capacity: number;
  private readonly weigh: (value: V) => number;
  private total = 0;

  constructor(capacity: number, weigh: (value: V) => number = () => 1) {
    this.capacity = capacity;
    this.weigh = weigh;
  }

  get(key: K): V | undefined {
    const slot = this.map.get(key);
    if (!slot) return undefined;
    slot.used = true;
    return slot.value;
  }

  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weigh(value);
    if (weight > this.capacity) return;
    this.map.set(key, { value, weight, used: false });
    this.total += weight;
    while (this.total > this.capacity) {
      const [oldest, slot] = this.map.entries().next().value as [K, { value: V; weight: number; used: boolean }];
      this.map.delete(oldest);
      if (slot.used) {
        slot.used = false;
        this.map.set(oldest, slot);
      } else {
        this.total -= slot.weight;
      }
    }
  }

  delete(key: K): void {
    const old = this.map.get(key);
    if (!old) return;
    this.map.delete(key);
    this.total -= old.weight;
  }

  clear(): void {
    this.map.clear();
    this.total = 0;
  }

  get size(): number {
    return this.map.size;
  }

  /** The entries' total weight (their count when nothing was weighed). */
  get weight(): number {
    return this.total;
  }
}
