/**
 * Runs at most `slots` tasks at a time; the rest wait their turn in order. Used where each task
 * takes a whole core for a while (password hashing), so that a burst of them cannot take every
 * core (and every thread of libuv's pool, which file reads also need) from the other requests.
 */
export class ConcurrencyLimit {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  readonly slots: number;

  constructor(slots: number) {
    if (!Number.isInteger(slots) || slots < 1) throw new Error(`slots must be a positive integer, not ${slots}`);
    this.slots = slots;
  }

  /** How many tasks are waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.slots) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next in line, so a newcomer cannot slip in between.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
