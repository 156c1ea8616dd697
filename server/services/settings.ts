import { promises as dns } from "node:dns";
import { asc, eq, sql } from "drizzle-orm";
import { platformSettings, users } from "../db/schema/index.ts";
import type { Database, Db } from "../db/types.ts";
import { parseWith } from "../http/errors.ts";
import type { Env } from "../runtime/env.ts";
import {
  SETTING_KEYS,
  SettingsSchema,
  type PlatformSettingsValues,
  type SettingsJson,
} from "#common/validation/settings.ts";
import type { PlatformContacts } from "#common/platform-contacts.ts";

export type { PlatformSettingsValues, SettingsJson };

type Defaults = Pick<
  Env,
  | "DNS_TARGET_IP"
  | "DNS_TARGET_HOST"
  | "PLATFORM_DOMAIN"
  | "SUPPORT_EMAIL"
  | "SUPPORT_PHONE"
  | "SUPPORT_CHAT_URL"
  | "PLATFORM_LEGAL_NAME"
  | "PLATFORM_LEGAL_ADDRESS"
  | "PLATFORM_GSTIN"
  | "GST_SAC"
  | "GST_RATE"
>;

const empty = (): PlatformSettingsValues =>
  Object.fromEntries(SETTING_KEYS.map((k) => [k, null])) as PlatformSettingsValues;

export const SETTINGS_CHANNEL = "pathshala_settings";

/**
 * The platform's settings (DNS targets, support contacts, legal identity): what admins stored,
 * else the environment's value, else what the platform can tell by itself (the CNAME target is
 * the platform's own domain, the A target what that name resolves to, the support address the
 * first admin's). One small row, read when a page needs it.
 */
export class SettingsService {
  private readonly db: Db;
  private readonly env: Defaults;
  private readonly database?: Database;
  private resolvedIp: Promise<string | null> | undefined;
  /** The contacts every public page shows (footer, /contact): read once, forgotten on any change. */
  private contacts: Promise<PlatformContacts> | undefined;
  /** Counts the changes to settings this instance has made or heard of. */
  private version = 0;
  /** Whether the listener has said that from now on no announcement is missed ("*"). */
  private heard = false;

  /** With `database`, the public contacts are cached and every instance forgets them on any change. */
  constructor(db: Db, env: Defaults, database?: Database) {
    this.db = db;
    this.env = env;
    this.database = database;
    database?.listen(SETTINGS_CHANNEL, (payload) => {
      if (payload === "*") this.heard = true;
      this.forget();
    });
  }

  /**
   * A number that changes whenever the settings may have, on this instance or any other: the
   * platform's public pages show its contacts, so their kept bytes (server/pages/kept-pages.ts)
   * are kept under it. Undefined while other instances' changes cannot be heard: keep nothing then.
   */
  settingsVersion(): number | undefined {
    return this.heard && this.database?.listening() ? this.version : undefined;
  }

  private forget(): void {
    this.contacts = undefined;
    this.version++;
  }

  /**
   * What the platform's public pages show for reaching it: only what admins set in Platform
   * Settings (or the environment gives); nothing made up, so a contact not set is not shown.
   */
  async publicContacts(): Promise<PlatformContacts> {
    const load = async (): Promise<PlatformContacts> => {
      const e = await this.effective();
      return {
        email: e.supportEmail,
        phone: e.supportPhone,
        chatUrl: e.supportChatUrl,
        legalName: e.legalName,
        address: e.legalAddress,
      };
    };
    if (!this.database?.listening()) return load();
    this.contacts ??= load().catch((error) => {
      this.contacts = undefined;
      throw error;
    });
    return this.contacts;
  }

  async get(): Promise<SettingsJson> {
    const [row] = await this.db.select().from(platformSettings).where(eq(platformSettings.id, 1));
    const stored = empty();
    if (row) for (const k of SETTING_KEYS) stored[k] = row[k];
    const defaults = await this.defaults();
    const effective = empty();
    for (const k of SETTING_KEYS) effective[k] = stored[k] ?? defaults[k];
    return { stored, defaults, effective, updatedAt: row?.updatedAt.toISOString() ?? null };
  }

  /** What is in force. */
  async effective(): Promise<PlatformSettingsValues> {
    return (await this.get()).effective;
  }

  /** Replaces the stored settings; an empty field goes back to its default. */
  async update(raw: unknown, adminId: string): Promise<SettingsJson> {
    const input = parseWith(SettingsSchema, raw);
    const values = { ...input, updatedBy: adminId, updatedAt: sql`now()` };
    await this.db
      .insert(platformSettings)
      .values({ id: 1, ...values })
      .onConflictDoUpdate({ target: platformSettings.id, set: values });
    this.forget();
    await this.database?.notify(SETTINGS_CHANNEL, "changed");
    return this.get();
  }

  private async defaults(): Promise<PlatformSettingsValues> {
    const e = this.env;
    return {
      dnsTargetIp: e.DNS_TARGET_IP ?? (await this.platformAddress()),
      dnsTargetHost: e.DNS_TARGET_HOST || e.PLATFORM_DOMAIN || null,
      supportEmail: e.SUPPORT_EMAIL ?? (await this.firstAdminEmail()),
      supportPhone: e.SUPPORT_PHONE ?? null,
      supportChatUrl: e.SUPPORT_CHAT_URL ?? null,
      legalName: e.PLATFORM_LEGAL_NAME ?? null,
      legalAddress: e.PLATFORM_LEGAL_ADDRESS ?? null,
      gstin: e.PLATFORM_GSTIN ?? null,
      sacCode: e.GST_SAC,
      gstRate: String(e.GST_RATE),
    };
  }

  /** The IPv4 address the platform's own domain has: where its institutes' `{slug}` hosts lead. Looked up once. */
  private platformAddress(): Promise<string | null> {
    const domain = this.env.PLATFORM_DOMAIN;
    if (!domain) return Promise.resolve(null);
    if (this.resolvedIp) return this.resolvedIp;
    const lookup = Promise.race([
      dns
        .lookup(domain, { family: 4 })
        .then((r) => r.address)
        .catch(() => null),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 2000).unref()),
    ]);
    // A failed look-up is tried again next time; an answer is kept.
    void lookup.then((ip) => {
      if (ip) this.resolvedIp = lookup;
    });
    return lookup;
  }

  private async firstAdminEmail(): Promise<string | null> {
    const [admin] = await this.db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.role, "admin"))
      .orderBy(asc(users.createdAt))
      .limit(1);
    return admin?.email ?? null;
  }
}
