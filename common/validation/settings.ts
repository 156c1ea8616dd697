import * as v from "valibot";
import { storable } from "./storable.ts";
import { isPhoneNumber } from "./phone.ts";
import { GST_RATES, GST_TEXTS, isGstin } from "../gst.ts";

/**
 * The platform settings admins edit (Settings in the admin dashboard). An empty field means "use
 * the default" (the environment's value, or what the platform can tell by itself).
 */

const HOST = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

export const SETTINGS_TEXTS = {
  saved: "Settings saved",
  dnsTargetIp: "The A record target must be an IPv4 address such as 203.0.113.10",
  dnsTargetHost: "The CNAME target must be a host name such as sites.pathshala.in",
  supportEmail: "Please enter a valid email address",
  supportPhone: "Please enter a valid phone number",
  supportChatUrl: "The chat link must start with https:// or http://",
  legalName: "The legal name must be text of at most 200 characters",
  legalAddress: "The address must be text of at most 500 characters",
  gstin: GST_TEXTS.gstin,
  sacCode: GST_TEXTS.sac,
  gstRate: GST_TEXTS.rate,
} as const;

/** "" and missing both mean: back to the default. */
const optional = (schema: v.GenericSchema<string, string>, message: string) =>
  v.pipe(
    v.optional(v.nullable(v.string(message)), null),
    v.transform((s): string => (s ?? "").trim()),
    v.union([v.literal(""), schema]),
    v.transform((s: string): string | null => (s === "" ? null : s)),
  );

/** A GSTIN as typed (any case, spaces), upper-cased and checked to its check character. */
export const gstinSchema = (message: string) =>
  v.pipe(
    v.string(),
    v.transform((s) => s.toUpperCase().replace(/\s/g, "")),
    v.check(isGstin, message),
  );

const pattern = (re: RegExp, message: string, map: (s: string) => string = (s) => s) =>
  v.pipe(v.string(), v.transform(map), v.regex(re, message));

export const SettingsSchema = v.object({
  dnsTargetIp: optional(pattern(IPV4, SETTINGS_TEXTS.dnsTargetIp), SETTINGS_TEXTS.dnsTargetIp),
  dnsTargetHost: optional(
    pattern(HOST, SETTINGS_TEXTS.dnsTargetHost, (s) => s.toLowerCase().replace(/\.$/, "")),
    SETTINGS_TEXTS.dnsTargetHost,
  ),
  supportEmail: optional(
    pattern(/^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/, SETTINGS_TEXTS.supportEmail, (s) => s.toLowerCase()),
    SETTINGS_TEXTS.supportEmail,
  ),
  supportPhone: optional(
    v.pipe(v.string(), v.check(isPhoneNumber, SETTINGS_TEXTS.supportPhone)),
    SETTINGS_TEXTS.supportPhone,
  ),
  supportChatUrl: optional(
    v.pipe(
      v.string(),
      v.maxLength(500, SETTINGS_TEXTS.supportChatUrl),
      v.regex(/^https?:\/\/[^\s]+$/, SETTINGS_TEXTS.supportChatUrl),
    ),
    SETTINGS_TEXTS.supportChatUrl,
  ),
  legalName: optional(
    v.pipe(v.string(), v.maxLength(200, SETTINGS_TEXTS.legalName), storable("Legal name")),
    SETTINGS_TEXTS.legalName,
  ),
  legalAddress: optional(
    v.pipe(v.string(), v.maxLength(500, SETTINGS_TEXTS.legalAddress), storable("Address")),
    SETTINGS_TEXTS.legalAddress,
  ),
  gstin: optional(gstinSchema(SETTINGS_TEXTS.gstin), SETTINGS_TEXTS.gstin),
  sacCode: optional(
    pattern(/^\d{6}$/, SETTINGS_TEXTS.sacCode, (s) => s.replace(/\s/g, "")),
    SETTINGS_TEXTS.sacCode,
  ),
  gstRate: optional(
    v.pipe(
      v.string(),
      v.transform((s) => s.replace(/\s*%$/, "").replace(/^0+(?=\d)/, "")),
      v.check(
        (s) => /^\d{1,2}$/.test(s) && (GST_RATES as readonly number[]).includes(Number(s)),
        SETTINGS_TEXTS.gstRate,
      ),
    ),
    SETTINGS_TEXTS.gstRate,
  ),
});
export type SettingsInput = v.InferOutput<typeof SettingsSchema>;
export const SETTING_KEYS = [
  "dnsTargetIp",
  "dnsTargetHost",
  "supportEmail",
  "supportPhone",
  "supportChatUrl",
  "legalName",
  "legalAddress",
  "gstin",
  "sacCode",
  "gstRate",
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];

export type PlatformSettingsValues = Record<SettingKey, string | null>;

/** GET /api/settings: what is stored, what the defaults are, and what is in force. */
export interface SettingsJson {
  stored: PlatformSettingsValues;
  defaults: PlatformSettingsValues;
  effective: PlatformSettingsValues;
  updatedAt: string | null;
}
