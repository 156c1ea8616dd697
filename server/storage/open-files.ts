import { open, type FileHandle } from "node:fs/promises";

/** A file held open for one read, until `release()`. */
export interface OpenFileLease {
  readonly handle: FileHandle;
  /** The file's size, read once when it was opened. */
  readonly size: number;
  /** Device, inode, modification time and size: another file (written again, or new) has another. */
  readonly identity: string;
  /** Ends the read (call once). */
  release(): void;
}

type OpenedFile = Pick<OpenFileLease, "handle" | "size" | "identity">;

interface Entry {
  /** Settles once the file is open, or null (no such file: the entry is then gone). */
  readonly opening: Promise<OpenedFile | null>;
  /** Reads in progress: the file is closed only when none is left. */
  users: number;
  /** Forgotten (deleted, replaced, evicted, idle): closed once its last read ends. */
  retired: boolean;
  lastUsed: number;
}

/**
 * Files kept open between reads. A video player fetches one file in many ranges, and each fetch
 * would otherwise cost four trips through libuv's thread pool (stat, open, read, close), each
 * waiting for a turn of a busy event loop; with the file open, a range is one read.
 *
 * Safe because a stored file never changes under its key (keys are made fresh for every upload);
 * put and delete forget the key all the same, and a file is closed only when no read uses it.
 * At most `max` files are kept; one unused for `idleMs` is closed.
 */
export class OpenFiles {
  private readonly entries = new Map<string, Entry>();
  private readonly max: number;
  private readonly idleMs: number;
  private sweeper: NodeJS.Timeout | undefined;

  constructor(options: { max?: number; idleMs?: number } = {}) {
    this.max = options.max ?? 128;
    this.idleMs = options.idleMs ?? 30_000;
  }

  /** The file at `path`, held open until the lease is released; null when there is no such file. */
  async acquire(path: string): Promise<OpenFileLease | null> {
    let entry = this.entries.get(path);
    if (entry) {
      // Most recently used last: eviction takes from the front.
      this.entries.delete(path);
      this.entries.set(path, entry);
    } else entry = this.opened(path);
    entry.users++;
    const file = await entry.opening;
    if (!file) {
      entry.users--;
      return null;
    }
    let released = false;
    const held = entry;
    return {
      ...file,
      release: () => {
        if (released) return;
        released = true;
        held.users--;
        held.lastUsed = Date.now();
        if (held.retired && held.users === 0) void file.handle.close().catch(() => {});
      },
    };
  }

  /** Closes the file kept for `path`, now or when its reads end: it was deleted or replaced. */
  forget(path: string): void {
    const entry = this.entries.get(path);
    if (entry) this.retire(path, entry);
  }

  /** Closes every file (reads in progress finish first). */
  close(): void {
    for (const [path, entry] of this.entries) this.retire(path, entry);
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /** How many files are kept open (for tests). */
  get size(): number {
    return this.entries.size;
  }

  private opened(path: string): Entry {
    const entry: Entry = {
      users: 0,
      retired: false,
      lastUsed: Date.now(),
      opening: openFile(path).then((file) => {
        if (!file && this.entries.get(path) === entry) this.entries.delete(path);
        return file;
      }),
    };
    this.entries.set(path, entry);
    this.evictOverflow();
    this.sweeper ??= setInterval(() => this.sweep(), Math.max(1000, this.idleMs / 2)).unref();
    return entry;
  }

  private retire(path: string, entry: Entry): void {
    if (this.entries.get(path) === entry) this.entries.delete(path);
    if (entry.retired) return;
    entry.retired = true;
    // In use (or being opened for a read): its last release closes it.
    if (entry.users === 0) void entry.opening.then((file) => file?.handle.close().catch(() => {}));
  }

  private evictOverflow(): void {
    for (const [path, entry] of this.entries) {
      if (this.entries.size <= this.max) return;
      this.retire(path, entry);
    }
  }

  private sweep(): void {
    const before = Date.now() - this.idleMs;
    for (const [path, entry] of this.entries)
      if (entry.users === 0 && entry.lastUsed < before) this.retire(path, entry);
    if (this.entries.size === 0) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  }
}

async function openFile(path: string): Promise<OpenedFile | null> {
  let handle: FileHandle;
  try {
    handle = await open(path, "r");
  } catch {
    return null;
  }
  const info = await handle.stat().catch(() => null);
  if (info?.isFile())
    return { handle, size: info.size, identity: `${info.dev}:${info.ino}:${info.mtimeMs}:${info.size}` };
  await handle.close().catch(() => {});
  return null;
}
