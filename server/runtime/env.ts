import * as v from "valibot";
import { DEFAULT_GST_RATE, DEFAULT_SAC, GST_RATES, isGstin } from "#common/gst.ts";

/**
 * The process environment, parsed once. A wrong value stops start-up with one line naming the
 * variable, so a misconfigured deploy fails at once instead of misbehaving later.
 */

const flag = (fallback: boolean) =>
  v.pipe(
    v.optional(v.string(), fallback ? "1" : "0"),
    v.trim(),
    v.toLowerCase(),
    v.picklist(["1", "0", "true", "false", "yes", "no", "on", "off", ""], "must be 1/0, true/false, yes/no or on/off"),
    v.transform((s) => (s === "" ? fallback : ["1", "true", "yes", "on"].includes(s))),
  );

const integer = (fallback: number, min: number, max: number, what: string) =>
  v.pipe(
    v.optional(v.string(), String(fallback)),
    v.trim(),
    v.regex(/^\d+$/, `must be ${what}`),
    v.transform(Number),
    v.number(),
    v.minValue(min, `must be ${what}`),
    v.maxValue(max, `must be ${what}`),
  );

const hostList = (fallback: string) =>
  v.pipe(
    v.optional(v.string(), fallback),
    v.transform((s) =>
      s
        .split(",")
        .map((h) => normaliseHost(h))
        .filter(Boolean),
    ),
    v.check((hosts) => hosts.every((h) => HOSTNAME.test(h)), "must be a comma-separated list of host names"),
  );

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
const IPV6_LITERAL = /^\[[0-9a-f:.]{2,45}\]$/;

/** Whether a normalised host is a DNS name or IP address (what a Host header may name). */
export function isHostName(host: string): boolean {
  return HOSTNAME.test(host) || IPV6_LITERAL.test(host);
}

/** Lower case, no port, no trailing dot: the one form hosts are compared in. */
export function normaliseHost(raw: string): string {
  let host = raw.trim().toLowerCase();
  if (host.startsWith("[")) {
    const end = host.indexOf("]");
    host = end > 0 ? host.slice(0, end + 1) : host;
  } else {
    const colon = host.indexOf(":");
    if (colon >= 0) host = host.slice(0, colon);
  }
  return host.endsWith(".") ? host.slice(0, -1) : host;
}

const optionalText = v.pipe(
  v.optional(v.string()),
  v.transform((s) => (s && s.trim() !== "" ? s.trim() : undefined)),
);

const bytes = (fallbackMiB: number) =>
  integer(fallbackMiB * 1024 * 1024, 1, Number.MAX_SAFE_INTEGER, "a size in bytes");

/** An http(s) origin with no path, query or credentials (`https://pathshala.in`); undefined otherwise. */
function platformUrl(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    const bare = url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password;
    return (url.protocol === "http:" || url.protocol === "https:") && bare ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

export const EnvSchema = v.object({
  NODE_ENV: v.optional(
    v.picklist(["development", "production", "test"], "must be development, production or test"),
    "production",
  ),
  PORT: integer(3000, 1, 65535, "a port number from 1 to 65535"),
  HOST: v.pipe(v.optional(v.string(), "0.0.0.0"), v.trim(), v.nonEmpty("must not be empty")),
  DATABASE_URL: v.pipe(
    optionalText,
    v.check((s) => s === undefined || /^postgres(ql)?:\/\/.+/.test(s), "must be a postgres:// or postgresql:// URL"),
  ),
  // Straight to PostgreSQL (or a pooler in session mode) when DATABASE_URL is a pooler in
  // transaction mode: the listener, migrations and the job queue need sessions (decision 0049).
  DATABASE_DIRECT_URL: v.pipe(
    optionalText,
    v.check((s) => s === undefined || /^postgres(ql)?:\/\/.+/.test(s), "must be a postgres:// or postgresql:// URL"),
  ),
  DATABASE_POOL_MAX: integer(10, 1, 1000, "a pool size from 1 to 1000"),
  // A queued job (a message's send) still running this long was lost with its process and is
  // tried again; the queue looks for such jobs this often. Tests set both small.
  JOB_EXPIRY_SECONDS: integer(60, 1, 3600, "a number of seconds from 1 to 3600"),
  JOB_SUPERVISE_SECONDS: integer(60, 1, 3600, "a number of seconds from 1 to 3600"),
  WEB_CONCURRENCY: integer(1, 1, 64, "a number of processes from 1 to 64"),
  DATA_DIR: v.pipe(v.optional(v.string(), "./data"), v.trim(), v.nonEmpty("must not be empty")),
  PLATFORM_HOSTS: hostList("localhost,127.0.0.1"),
  PLATFORM_DOMAIN: v.pipe(
    v.optional(v.string(), "localhost"),
    v.transform(normaliseHost),
    v.check((s) => s === "" || HOSTNAME.test(s), "must be a host name such as pathshala.in"),
  ),
  /**
   * The platform's address as visitors type it (`https://pathshala.in`, `http://localhost:8080`):
   * links in messages lead there, and to institutes with its scheme and port. Unset: https on a
   * public host, http with PORT on a local one. Its host must be one of PLATFORM_HOSTS.
   */
  PLATFORM_URL: v.pipe(
    optionalText,
    v.check(
      (s) => s === undefined || platformUrl(s) !== undefined,
      "must be an http(s) address with no path, such as https://pathshala.in",
    ),
    v.transform((s) => (s === undefined ? undefined : platformUrl(s))),
  ),
  TRUST_PROXY: flag(false),
  SEED_DEMO: flag(true),
  LOG_LEVEL: v.optional(
    v.picklist(["debug", "info", "warn", "error", "silent"], "must be debug, info, warn, error or silent"),
    "info",
  ),
  LOG_FORMAT: v.optional(v.picklist(["json", "pretty"], "must be json or pretty"), "json"),
  RAZORPAY_KEY_ID: optionalText,
  RAZORPAY_KEY_SECRET: optionalText,
  RAZORPAY_WEBHOOK_SECRET: optionalText,
  /** The offline stand-in of Razorpay: only when switched on (never because keys are missing). */
  RAZORPAY_SANDBOX: flag(false),
  /**
   * The platform's Razorpay partner application (OAuth, 'Connect with Razorpay'): its client id and
   * secret, and the secret of its partner webhook. Without a client id owners connect by keys only.
   */
  RAZORPAY_PARTNER_CLIENT_ID: optionalText,
  RAZORPAY_PARTNER_CLIENT_SECRET: optionalText,
  RAZORPAY_PARTNER_WEBHOOK_SECRET: optionalText,
  /** Razorpay's OAuth service (`/authorize`, `/token`); https://auth.razorpay.com unless set. */
  RAZORPAY_AUTH_URL: v.pipe(
    optionalText,
    v.check((s) => s === undefined || /^https?:\/\/.+/.test(s), "must be an http(s) URL"),
  ),
  /**
   * Seals institutes' payment keys (AES-256-GCM): 32 bytes as 64 hex digits or base64. Needed to
   * connect a real Razorpay account; the sandbox has a documented default (server/payments/secrets.ts).
   */
  SECRETS_KEY: v.pipe(
    optionalText,
    v.check(
      (s) => s === undefined || /^[0-9a-fA-F]{64}$/.test(s.trim()) || Buffer.from(s.trim(), "base64").length === 32,
      "must be 32 bytes: 64 hex digits or base64",
    ),
  ),
  RAZORPAY_API_URL: v.pipe(
    optionalText,
    v.check((s) => s === undefined || /^https?:\/\/.+/.test(s), "must be an http(s) URL"),
  ),
  S3_BUCKET: optionalText,
  S3_ENDPOINT: v.pipe(
    optionalText,
    v.check((s) => s === undefined || /^https?:\/\/.+/.test(s), "must be an http(s) URL"),
  ),
  S3_REGION: v.optional(v.string(), "us-east-1"),
  S3_ACCESS_KEY_ID: optionalText,
  S3_SECRET_ACCESS_KEY: optionalText,
  S3_FORCE_PATH_STYLE: flag(true),
  MAX_PDF_BYTES: bytes(100),
  MAX_VIDEO_BYTES: bytes(4096),
  MAX_IMAGE_BYTES: bytes(5),
  METRICS_TOKEN: optionalText,
  HOST_CACHE_ENTRIES: integer(200_000, 100, 10_000_000, "a number of entries"),
  SITE_CACHE_MB: integer(256, 1, 65_536, "a size in megabytes"),
  FILE_CACHE_MB: integer(64, 0, 65_536, "a size in megabytes"),
  DNS_TARGET_HOST: v.pipe(v.optional(v.string(), ""), v.transform(normaliseHost)),
  DNS_TARGET_IP: v.pipe(
    optionalText,
    v.check((s) => s === undefined || /^\d{1,3}(\.\d{1,3}){3}$/.test(s), "must be an IPv4 address"),
  ),
  SUPPORT_EMAIL: v.pipe(
    optionalText,
    v.check((s) => s === undefined || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), "must be an e-mail address"),
  ),
  SUPPORT_PHONE: v.pipe(
    optionalText,
    v.check(
      (s) => s === undefined || /^\+?[\d\s\-()]{6,20}$/.test(s),
      "must be a phone number such as +91 33 4000 1234",
    ),
  ),
  SUPPORT_CHAT_URL: v.pipe(
    optionalText,
    v.check((s) => s === undefined || /^https?:\/\/.+/.test(s), "must be an http(s) URL"),
  ),
  /**
   * The message sandbox: channels without a provider keep their messages in the outbox served at
   * /_sandbox/outbox. Only when switched on (the demo, the tests); off, such messages are skipped.
   */
  MESSAGES_SANDBOX: flag(false),
  /** E-mail over SMTP (nodemailer): smtp(s)://user:pass@host:port. Without it e-mail is not sent (or kept in the sandbox outbox). */
  SMTP_URL: v.pipe(
    optionalText,
    v.check((s) => s === undefined || /^smtps?:\/\/.+/.test(s), "must be an smtp:// or smtps:// URL"),
  ),
  MAIL_FROM: v.optional(v.string(), "Pathshala <no-reply@localhost>"),
  /** WhatsApp Cloud API (Meta): the access token, the sending number's id and the webhook's app secret. */
  WHATSAPP_TOKEN: optionalText,
  WHATSAPP_PHONE_NUMBER_ID: optionalText,
  WHATSAPP_APP_SECRET: optionalText,
  /** The token Meta sends back when the webhook is subscribed (chosen in the app's dashboard). */
  WHATSAPP_VERIFY_TOKEN: optionalText,
  WHATSAPP_API_URL: v.pipe(
    v.optional(v.string(), "https://graph.facebook.com/v21.0"),
    v.check((s) => /^https?:\/\/.+/.test(s), "must be an http(s) URL"),
  ),
  /** SMS through MSG91 (DLT-registered templates): the auth key and the sender id. */
  MSG91_AUTH_KEY: optionalText,
  MSG91_SENDER_ID: optionalText,
  /** The secret in the address of MSG91's delivery-report webhook (`…/webhooks/msg91?token=`). */
  MSG91_WEBHOOK_TOKEN: optionalText,
  /** Each SMS template's MSG91 flow id, as JSON: {"phone-code":"64f…","phone-code:hi":"65a…"} (Hindi as `{id}:hi`). */
  MSG91_TEMPLATE_IDS: v.pipe(
    v.optional(v.string(), "{}"),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      try {
        const parsed: unknown = JSON.parse(dataset.value || "{}");
        if (
          parsed &&
          typeof parsed === "object" &&
          !Array.isArray(parsed) &&
          Object.values(parsed).every((id) => typeof id === "string")
        )
          return parsed as Record<string, string>;
      } catch {
        // Reported below.
      }
      addIssue({ message: 'must be JSON such as {"seminar-booked":"64f0…"}' });
      return NEVER;
    }),
  ),
  MSG91_API_URL: v.pipe(
    v.optional(v.string(), "https://control.msg91.com/api/v5"),
    v.check((s) => /^https?:\/\/.+/.test(s), "must be an http(s) URL"),
  ),
  /** The platform's legal identity on bills: first defaults of the admins' Settings page. */
  PLATFORM_LEGAL_NAME: optionalText,
  PLATFORM_LEGAL_ADDRESS: optionalText,
  PLATFORM_GSTIN: v.pipe(
    optionalText,
    v.check(
      (s) => s === undefined || isGstin(s),
      "must be a 15-character GSTIN with its check character, such as 19AABCP1234C1ZX",
    ),
  ),
  /** What the platform's and institutes' invoices charge: the SAC code and the GST rate in per cent. */
  GST_SAC: v.pipe(v.optional(v.string(), DEFAULT_SAC), v.regex(/^\d{6}$/, "must be a 6-digit SAC code")),
  GST_RATE: v.pipe(
    v.optional(v.string(), String(DEFAULT_GST_RATE)),
    v.check((s) => (GST_RATES as readonly number[]).includes(Number(s)), "must be one of 0, 5, 12, 18, 28"),
    v.transform(Number),
  ),
});

export type Env = v.InferOutput<typeof EnvSchema>;

export class EnvError extends Error {}

/** Parses an environment; throws an EnvError whose message is the one line to print. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = v.safeParse(EnvSchema, source);
  if (result.success) {
    const { PLATFORM_URL, PLATFORM_HOSTS } = result.output;
    if (PLATFORM_URL && !PLATFORM_HOSTS.includes(normaliseHost(new URL(PLATFORM_URL).host)))
      throw new EnvError(
        `Invalid environment variable PLATFORM_URL: must name one of PLATFORM_HOSTS (got ${JSON.stringify(source.PLATFORM_URL)})`,
      );
    return result.output;
  }
  const issue = result.issues[0];
  const name = issue.path?.map((p) => String(p.key)).join(".") ?? "environment";
  const given = source[name];
  const shown =
    given === undefined ? "" : ` (got ${JSON.stringify(given.length > 60 ? `${given.slice(0, 60)}…` : given)})`;
  throw new EnvError(`Invalid environment variable ${name}: ${issue.message}${shown}`);
}

/** Parses process.env, or prints the one-line reason and exits. */
export function loadEnv(): Env {
  try {
    return parseEnv(process.env);
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
