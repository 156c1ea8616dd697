import { inArray, sql } from "drizzle-orm";
import { feeSettings } from "../../db/schema/index.ts";
import type { Db, DbOrTx } from "../../db/types.ts";
import { parseWith } from "../../http/errors.ts";
import { toRupees } from "#common/fees.ts";
import { FEE_SETTINGS_DEFAULTS, FeeSettingsInput, type FeeSettingsJson } from "#common/validation/fee-settings.ts";

/** An institute's fee settings as stored (bounce fee in paise): its row, or the defaults. */
export interface FeeSettingsValues {
  remindDaysBefore: number;
  remindOnDay: boolean;
  remindDaysAfter: number;
  defaulterAfterDays: number;
  defaulterPolicy: string | null;
  bounceFee: number;
  allowPartialOnline: boolean;
  defaulterHoldsNewContent: boolean;
  updatedAt: Date | null;
}

/** The institute's settings in `db` (a transaction's, when a decision depends on them). */
export async function feeSettingsOf(db: DbOrTx, centerId: string): Promise<FeeSettingsValues> {
  return (await feeSettingsOfCenters(db, [centerId])).get(centerId)!;
}

/** Several institutes' settings in one query, by institute (the defaults for one that saved none). */
export async function feeSettingsOfCenters(db: DbOrTx, centerIds: string[]): Promise<Map<string, FeeSettingsValues>> {
  const ids = [...new Set(centerIds)];
  const rows = ids.length ? await db.select().from(feeSettings).where(inArray(feeSettings.centerId, ids)) : [];
  const saved = new Map(rows.map(({ centerId, ...values }) => [centerId, values]));
  return new Map(ids.map((id) => [id, saved.get(id) ?? { ...FEE_SETTINGS_DEFAULTS, bounceFee: 0, updatedAt: null }]));
}

const toJson = (centerId: string, s: FeeSettingsValues): FeeSettingsJson => ({
  centerId,
  remindDaysBefore: s.remindDaysBefore,
  remindOnDay: s.remindOnDay,
  remindDaysAfter: s.remindDaysAfter,
  defaulterAfterDays: s.defaulterAfterDays,
  defaulterPolicy: s.defaulterPolicy,
  bounceFee: toRupees(s.bounceFee),
  allowPartialOnline: s.allowPartialOnline,
  defaulterHoldsNewContent: s.defaulterHoldsNewContent,
  updatedAt: s.updatedAt?.toISOString() ?? null,
});

/**
 * An institute's fee rules beyond its plans (issue 42 §1, §4, §5): one row per institute, none
 * until it saves (the defaults stand in). Reminders, the defaulters list and the cheque desk
 * read them; owners and staff change them.
 */
export class FeeSettings {
  private readonly db: Db;

  constructor(deps: { db: Db }) {
    this.db = deps.db;
  }

  async get(centerId: string): Promise<FeeSettingsJson> {
    return toJson(centerId, await feeSettingsOf(this.db, centerId));
  }

  /** `get` for several institutes in one query, by institute. */
  async ofCenters(centerIds: string[]): Promise<Map<string, FeeSettingsJson>> {
    const values = await feeSettingsOfCenters(this.db, centerIds);
    return new Map([...values].map(([id, v]) => [id, toJson(id, v)]));
  }

  /** Replaces every setting; an empty policy is none. */
  async save(centerId: string, input: unknown): Promise<FeeSettingsJson> {
    const { centerId: _, ...body } = parseWith(FeeSettingsInput, input);
    const values = { ...body, defaulterPolicy: body.defaulterPolicy || null };
    await this.db
      .insert(feeSettings)
      .values({ centerId, ...values })
      .onConflictDoUpdate({ target: feeSettings.centerId, set: { ...values, updatedAt: sql`now()` } });
    return this.get(centerId);
  }
}
