import type { SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import type { Db, Tx } from "../db/types.ts";

/** Whether `event` is one of `names` (a webhook's `event` field, narrowed to a kind's own). */
export const isOneOf =
  <T extends string>(names: readonly T[]) =>
  (event: string): event is T =>
    (names as readonly string[]).includes(event);

/** What handles one kind of gateway object's webhooks (a payment link, a recurring token), found by its id. */
export interface EventHandler<E> {
  /** The merchant account the object was made on (null: the platform's); undefined for one we never made. */
  accountOf(id: string): Promise<string | null | undefined>;
  /** Applies one delivery inside the webhook's transaction; false for an object we never made. */
  apply(tx: Tx, event: E): Promise<boolean>;
}

/**
 * The registry the webhook asks about one kind of object: one handler, registered where the
 * service that makes those objects is made, so the payment layer never imports the services.
 */
export class EventRegistry<E, H extends EventHandler<E> = EventHandler<E>> {
  protected handler: H | null = null;

  register(handler: H): void {
    if (this.handler) throw new Error("a handler is already registered");
    this.handler = handler;
  }

  async accountOf(id: string): Promise<string | null | undefined> {
    return this.handler ? this.handler.accountOf(id) : undefined;
  }

  async apply(tx: Tx, event: E): Promise<boolean> {
    return this.handler ? this.handler.apply(tx, event) : false;
  }
}

/** A handler's `accountOf` for objects kept as rows: the merchant account on the row of `table` that `where` finds. */
export async function merchantAccountOnRow(
  db: Db,
  table: PgTable,
  account: PgColumn,
  where: SQL,
): Promise<string | null | undefined> {
  const [row] = await db.select({ account }).from(table).where(where);
  return row ? (row.account as string | null) : undefined;
}
