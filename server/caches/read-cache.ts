import { LRUCache } from "lru-cache";
import type { Database } from "../db/types.ts";
import { currentTenantScope } from "../db/tenant-scope.ts";
import { recordCache } from "../runtime/metrics.ts";

/**
 * Where the database announces every change to what the signed-in reads show (migration
 * 0007_read-change-notices): a tag per changed row ("content:<id>", "creator:<id>",
 * "student:<id>", "center:<id>", "roles"), or "*" when too many rows changed at once to name.
 */
export const READS_CHANNEL = "pathshala_reads";

const centerTag = (id: string) => `center:${id}`;
const contentTag = (id: string) => `content:${id}`;

export const readTags = {
  content: contentTag,
  creator: (id: string) => `creator:${id}`,
  student: (id: string) => `student:${id}`,
  center: centerTag,
  roles: "roles",
  /** What a content row shown with its institute's name was made from. */
  ofContent: (row: { id: string; centerId: string | null }) =>
    row.centerId ? [contentTag(row.id), centerTag(row.centerId)] : [contentTag(row.id)],
} as const;

interface Entry<V> {
  value: V;
  at: number;
  tags: readonly string[];
}

export interface ReadCacheOptions {
  maxEntries?: number;
  maxAgeMs?: number;
}

/** Which of /metrics' cache lookup counters a family of caches counts in. */
type ReadMetric = "reads" | "sessions";

/**
 * One read's answers kept in memory (a checked session, a student's courses, a creator's list…),
 * each with the tags of the rows it was made from (decisions 0007 and 0009): an entry is dropped
 * when the database announces a change to one of its tags, on every instance, whichever code path
 * made it; nothing is trusted while the announcements cannot be heard; an answer read across an
 * announcement is not stored; no entry outlives `maxAgeMs`; "nothing found" (undefined) is never
 * kept, so no one can fill the cache with lookups of what does not exist. At most `maxEntries`
 * are kept, the least recently used leaving first (lru-cache).
 */
export class ReadCache<V> {
  private readonly entries: LRUCache<string, Entry<V>>;
  private readonly byTag = new Map<string, Set<string>>();
  private generation = 0;
  private readonly maxAgeMs: number;
  private readonly trusted: () => boolean;
  private readonly metric: ReadMetric;

  constructor(trusted: () => boolean, metric: ReadMetric, options: ReadCacheOptions = {}) {
    this.trusted = trusted;
    this.metric = metric;
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
    // However an entry leaves (dropped, evicted, replaced), its tags stop naming it.
    this.entries = new LRUCache({
      max: options.maxEntries ?? 20_000,
      dispose: (entry, key) => this.unindex(key, entry.tags),
    });
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The answer for `key`: from memory when held and trusted, else from `load`, kept with the
   * tags `tagsOf` names for it. `now` is injectable for tests. The request's institute is part of
   * the key: row-level security gives the same query a different answer on each domain.
   */
  async read(
    readKey: string,
    load: () => Promise<V>,
    tagsOf: (value: Exclude<V, undefined>) => readonly string[],
    now = Date.now(),
  ): Promise<V> {
    const key = `${currentTenantScope()}|${readKey}`;
    if (this.trusted()) {
      const entry = this.entries.get(key);
      const fresh = entry !== undefined && now - entry.at <= this.maxAgeMs;
      recordCache(this.metric, fresh);
      if (fresh) return entry.value;
      if (entry) this.entries.delete(key);
    }
    const generation = this.generation;
    const value = await load();
    if (value !== undefined && this.trusted() && generation === this.generation)
      this.store(key, value, tagsOf(value as Exclude<V, undefined>), now);
    return value;
  }

  /** A change to `tag` (announced, or made by this instance): drop what was made from it. */
  forget(tag: string): void {
    this.generation++;
    if (tag === "*") {
      this.byTag.clear();
      this.entries.clear();
      return;
    }
    const keys = this.byTag.get(tag);
    if (!keys) return;
    for (const key of [...keys]) this.entries.delete(key);
  }

  private store(key: string, value: V, tags: readonly string[], now: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, at: now, tags });
    for (const tag of tags) {
      let keys = this.byTag.get(tag);
      if (!keys) this.byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
  }

  private unindex(key: string, tags: readonly string[]): void {
    for (const tag of tags) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }
}

/**
 * An instance's caches fed by one channel's announcements (READS_CHANNEL by default; checked
 * sessions have their own). They are used only once the listener has said it is connected
 * ("*"), and while it stays up.
 */
export class ReadCaches {
  private readonly caches: ReadCache<unknown>[] = [];
  private heard = false;
  private readonly database: Pick<Database, "listening">;
  private readonly metric: ReadMetric;

  constructor(
    database: Pick<Database, "listen" | "listening">,
    options: { channel?: string; metric?: ReadMetric } = {},
  ) {
    this.database = database;
    this.metric = options.metric ?? "reads";
    database.listen(options.channel ?? READS_CHANNEL, (tag) => {
      if (tag === "*") this.heard = true;
      this.forget(tag);
    });
  }

  create<V>(options?: ReadCacheOptions): ReadCache<V> {
    const cache = new ReadCache<V>(() => this.heard && this.database.listening(), this.metric, options);
    this.caches.push(cache as ReadCache<unknown>);
    return cache;
  }

  /**
   * This instance changed rows under `tags`: forget now, without waiting for the announcement,
   * so that its next answer shows the change.
   */
  forget(...tags: string[]): void {
    for (const cache of this.caches) for (const tag of tags) cache.forget(tag);
  }
}
