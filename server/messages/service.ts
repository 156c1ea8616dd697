import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { centers, messageOptOuts, messages, users } from "../db/schema/index.ts";
import type { Db, DbOrTx } from "../db/types.ts";
import { notFound } from "../http/errors.ts";
import type { Logger } from "../runtime/logger.ts";
import type { MessagingConfig } from "./config.ts";
import type { JobQueue, SendJob } from "./queue.ts";
import type { SiteLinks } from "./links.ts";
import { isUuid } from "#common/validation/ids.ts";
import {
  PLATFORM_BRAND,
  TEMPLATES,
  emailHtml,
  orderedValues,
  renderTemplate,
  type Brand,
  type Locale,
  type TemplateId,
  type ValuesOf,
} from "./templates.ts";
import { PermanentFailure } from "./transports/types.ts";
import { applyRecipientPolicy } from "./recipient-policy.ts";
import { valuesToSend } from "./visitor-text.ts";
import { brandedValues, instituteBrand } from "./branding.ts";
import { MESSAGE_TEXTS, type Channel, type MessageStatus } from "#common/messages.ts";
import type { MessageLanguage } from "#common/validation/message-language.ts";

export interface MessageRequest<T extends TemplateId> {
  template: T;
  values: ValuesOf<T>;
  /** Where it can go: each of the template's channels the recipient has an address for. */
  to: { email?: string | null; phone?: string | null; userId?: string | null };
  /** The institute it is about: its name and colour brand it, and its language is the default. */
  centerId?: string | null;
  /**
   * Only where the caller knows better than the recipient's choice; otherwise the language is the
   * account's choice (`to.userId`), else the institute's (`centerId`), else English.
   */
  locale?: Locale;
  /** A reminder's identity: a message with the same key (per channel) is never written twice. */
  dedupeKey?: string;
  /** An invoice or credit note to send with it: e-mail attaches its PDF. */
  invoiceId?: string;
}

/** Whose name a message carries and the language it is in when its recipient chose none. */
interface SenderInstitute {
  brand: Brand;
  language: MessageLanguage;
}
const PLATFORM_SENDER: SenderInstitute = { brand: PLATFORM_BRAND, language: "en" };

/** A file sent with an e-mail. */
export interface Attachment {
  filename: string;
  content: Uint8Array;
  contentType: string;
}

/** Rows written per statement: ~16 parameters each, well under PostgreSQL's 65,535. */
const WRITE_BATCH = 1000;

/** A message as the sandbox outbox and the admins' list show it. */
export interface MessageJson {
  id: string;
  channel: Channel;
  to: string;
  template: string;
  subject?: string;
  /** Who an e-mail says it is from (the platform, or "{institute} via Pathshala"). */
  from?: string;
  text: string;
  status: MessageStatus;
  attempts: number;
  error: string | null;
  createdAt: string;
  sentAt: string | null;
  /** Where the PDF attached to an e-mail (an invoice) downloads. */
  attachment?: string;
}

const toJson = (row: typeof messages.$inferSelect): MessageJson => ({
  id: row.id,
  channel: row.channel,
  to: row.recipient,
  template: row.template,
  ...(row.subject ? { subject: row.subject } : {}),
  ...(row.sender ? { from: row.sender } : {}),
  text: row.text,
  status: row.status,
  attempts: row.attempts,
  error: row.lastError,
  createdAt: row.createdAt.toISOString(),
  sentAt: row.sentAt?.toISOString() ?? null,
  ...(row.invoiceId ? { attachment: `/api/invoices/${row.invoiceId}/pdf` } : {}),
});

/**
 * The messaging layer (issue 30): a message is a template, a recipient, a channel and values.
 * `send` writes it to the outbox in the caller's transaction with its job; the worker sends it
 * through the channel's transport, retrying with backoff, and marks it failed after the last try.
 */
export class MessageService {
  private readonly db: Db;
  private readonly queue: JobQueue;
  private readonly config: MessagingConfig;
  private readonly logger: Logger;

  /** Where an e-mail's opt-out link points (the platform's /unsubscribe/{message id}), and institutes' addresses. */
  private readonly links: SiteLinks;
  private readonly institutes = new WeakMap<DbOrTx, Map<string, SenderInstitute>>();
  /** Renders an invoice's PDF when its e-mail is sent (set once the invoices exist). */
  private invoicePdf: ((invoiceId: string) => Promise<Attachment>) | null = null;

  constructor(deps: { db: Db; queue: JobQueue; config: MessagingConfig; logger: Logger; links: SiteLinks }) {
    this.db = deps.db;
    this.queue = deps.queue;
    this.config = deps.config;
    this.logger = deps.logger;
    this.links = deps.links;
  }

  attachInvoicesWith(render: (invoiceId: string) => Promise<Attachment>) {
    this.invoicePdf = render;
  }

  get sandbox(): boolean {
    return this.config.sandbox;
  }

  /** Each channel's transport by name ("sandbox" included), or null where it has none (start-up says which). */
  get channels(): Record<Channel, string | null> {
    const { email, whatsapp, sms } = this.config.transports;
    return { email: email?.name ?? null, whatsapp: whatsapp?.name ?? null, sms: sms?.name ?? null };
  }

  /** The secrets WhatsApp's webhooks are checked with. */
  get whatsappWebhook() {
    return { appSecret: this.config.whatsappAppSecret, verifyToken: this.config.whatsappVerifyToken };
  }

  /** The secret MSG91's delivery-report webhook carries in its address. */
  get msg91WebhookToken() {
    return this.config.msg91WebhookToken;
  }

  start() {
    return this.queue.start(
      (job) => this.deliver(job),
      (job) => this.giveUp(job),
    );
  }

  stop() {
    this.config.close();
    return this.queue.stop();
  }

  /** Writes the message (one per channel it can go to) in `tx`, with the jobs that will send it. */
  async send<T extends TemplateId>(tx: DbOrTx, request: MessageRequest<T>): Promise<void> {
    await this.sendAll(tx, [request]);
  }

  /**
   * Writes many messages in `tx` in a few statements (results released to every taker of a test):
   * their rows in batches, and their jobs with each batch.
   */
  async sendAll<T extends TemplateId>(tx: DbOrTx, requests: MessageRequest<T>[]): Promise<void> {
    const rows: (typeof messages.$inferInsert & { id: string; status: "queued" | "skipped" | "held" })[] = [];
    const chosen = await this.chosenLanguages(tx, requests);
    for (const request of requests) rows.push(...(await this.rowsOf(tx, request, chosen)));
    if (rows.length === 0) return;
    const promotional = new Set(rows.filter((r) => TEMPLATES[r.template as TemplateId].promotional).map((r) => r.id));
    if (promotional.size > 0) {
      const out = await tx
        .select({ channel: messageOptOuts.channel, recipient: messageOptOuts.recipient })
        .from(messageOptOuts)
        .where(
          inArray(
            messageOptOuts.recipient,
            rows.filter((r) => promotional.has(r.id)).map((r) => r.recipient),
          ),
        );
      const optedOut = new Set(out.map((o) => `${o.channel}:${o.recipient}`));
      for (const row of rows)
        if (promotional.has(row.id) && optedOut.has(`${row.channel}:${row.recipient}`)) row.status = "skipped";
    }
    // Who may be sent what (issue 37 §6): a message that breaks a rule is written held, never sent.
    await applyRecipientPolicy(tx, rows);
    for (let i = 0; i < rows.length; i += WRITE_BATCH) {
      const written = await tx
        .insert(messages)
        .values(rows.slice(i, i + WRITE_BATCH))
        .onConflictDoNothing({ target: messages.dedupeKey })
        .returning({ id: messages.id, status: messages.status });
      await this.queue.enqueueAll(
        tx,
        written.filter((row) => row.status === "queued").map((row) => ({ messageId: row.id })),
      );
    }
  }

  /** One request's rows: one per channel of its template that the recipient has an address for. */
  private async rowsOf<T extends TemplateId>(
    tx: DbOrTx,
    request: MessageRequest<T>,
    chosen: Map<string, MessageLanguage | null>,
  ) {
    const def = TEMPLATES[request.template];
    const center = await this.centerOf(tx, request.centerId ?? null);
    const brand = center.brand;
    const locale: Locale =
      request.locale ?? (request.to.userId ? chosen.get(request.to.userId) : null) ?? center.language;
    // Text people typed goes out without web addresses (server/messages/visitor-text.ts).
    const sent = valuesToSend(request.template, brandedValues(request.values, brand));
    const rendered = renderTemplate(request.template, sent, locale, brand);
    const addresses: Partial<Record<Channel, string>> = {
      email: request.to.email ?? undefined,
      whatsapp: request.to.phone ?? undefined,
      sms: request.to.phone ?? undefined,
    };
    const values = Object.fromEntries(orderedValues(request.template, sent).map((v, i) => [String(i + 1), v]));
    return def.channels
      .filter((channel) => addresses[channel])
      .map((channel) => {
        // Known before the row is written: an e-mail's opt-out link names it.
        const id = crypto.randomUUID();
        return {
          id,
          template: request.template as string,
          channel,
          recipient: addresses[channel]!,
          userId: request.to.userId ?? null,
          centerId: request.centerId ?? null,
          locale,
          subject: channel === "email" ? rendered.subject : null,
          sender: channel === "email" ? brand.sender : null,
          text: rendered.text,
          html:
            channel === "email"
              ? emailHtml(rendered, brand, this.unsubscribeLink(id), (sent as { link?: string }).link, locale)
              : null,
          values,
          status: "queued" as "queued" | "skipped" | "held",
          dedupeKey: request.dedupeKey ? `${request.dedupeKey}:${channel}` : null,
          invoiceId: channel === "email" ? (request.invoiceId ?? null) : null,
        };
      });
  }

  /** The page where the recipient of an e-mail stops promotional e-mail. */
  unsubscribeLink(messageId: string): string {
    return this.links.to(null, `/unsubscribe/${messageId}`);
  }

  /** Who a message went to, for its opt-out link (null for an unknown id). */
  async recipientOf(messageId: string): Promise<{ channel: Channel; recipient: string } | null> {
    if (!isUuid(messageId)) return null;
    const [row] = await this.db
      .select({ channel: messages.channel, recipient: messages.recipient })
      .from(messages)
      .where(eq(messages.id, messageId));
    return row ?? null;
  }

  /**
   * A provider's report on a message it took (sent, delivered, read, failed). A status only moves
   * forward: a late "delivered" never undoes "read". Whether a message of ours was found.
   */
  async recordStatus(transport: string, providerId: string, status: string, error?: string): Promise<boolean> {
    const order = ["sent", "delivered", "read"];
    if (status === "failed") {
      const failed = await this.db
        .update(messages)
        .set({
          status: "failed",
          lastError: (error ?? "The provider reported a failure").slice(0, 500),
          updatedAt: new Date(),
        })
        .where(and(eq(messages.transport, transport), eq(messages.providerId, providerId)))
        .returning({ id: messages.id });
      return failed.length > 0;
    }
    const rank = order.indexOf(status);
    if (rank < 0) return false;
    const moved = await this.db
      .update(messages)
      .set({ status: status as MessageStatus, updatedAt: new Date() })
      .where(
        and(
          eq(messages.transport, transport),
          eq(messages.providerId, providerId),
          inArray(messages.status, ["sending", ...order.slice(0, rank)] as MessageStatus[]),
        ),
      )
      .returning({ id: messages.id });
    return moved.length > 0;
  }

  /** The recipient asked for no more promotional messages on this channel (an e-mail's link, STOP). */
  async optOut(channel: Channel, recipient: string): Promise<void> {
    await this.db.insert(messageOptOuts).values({ channel, recipient }).onConflictDoNothing();
  }

  /** The recipient asked for them again (START). */
  async optIn(channel: Channel, recipient: string): Promise<void> {
    await this.db
      .delete(messageOptOuts)
      .where(and(eq(messageOptOuts.channel, channel), eq(messageOptOuts.recipient, recipient)));
  }

  async optedOut(channel: Channel, recipient: string): Promise<boolean> {
    const [row] = await this.db
      .select({ channel: messageOptOuts.channel })
      .from(messageOptOuts)
      .where(and(eq(messageOptOuts.channel, channel), eq(messageOptOuts.recipient, recipient)));
    return Boolean(row);
  }

  /**
   * The institute's name, colour and language, read once per transaction: an event that tells
   * many people (results released to every taker, a sweep's reminders) sends many messages in one.
   * The platform's own messages are in English unless their recipient chose otherwise.
   */
  private async centerOf(tx: DbOrTx, centerId: string | null): Promise<SenderInstitute> {
    if (!centerId) return PLATFORM_SENDER;
    const known = this.institutes.get(tx) ?? new Map<string, SenderInstitute>();
    this.institutes.set(tx, known);
    const institute = known.get(centerId) ?? (await this.readInstitute(tx, centerId));
    known.set(centerId, institute);
    return institute;
  }

  private async readInstitute(tx: DbOrTx, centerId: string): Promise<SenderInstitute> {
    const [center] = await tx
      .select({
        name: centers.instituteName,
        slug: centers.slug,
        customDomain: centers.customDomain,
        profile: centers.siteProfile,
        language: centers.messageLanguage,
      })
      .from(centers)
      .where(eq(centers.id, centerId));
    if (!center) return PLATFORM_SENDER;
    return {
      brand: instituteBrand({ ...center, brandColor: center.profile.brandColor }, this.links),
      language: center.language,
    };
  }

  /** The language each recipient account chose (null: the institute's choice), in one read for a batch. */
  private async chosenLanguages<T extends TemplateId>(
    tx: DbOrTx,
    requests: MessageRequest<T>[],
  ): Promise<Map<string, MessageLanguage | null>> {
    const ids = [...new Set(requests.filter((r) => !r.locale && r.to.userId).map((r) => r.to.userId!))];
    const chosen = new Map<string, MessageLanguage | null>();
    for (let i = 0; i < ids.length; i += WRITE_BATCH) {
      const rows = await tx
        .select({ id: users.id, language: users.messageLanguage })
        .from(users)
        .where(inArray(users.id, ids.slice(i, i + WRITE_BATCH)));
      for (const row of rows) chosen.set(row.id, row.language);
    }
    return chosen;
  }

  /** The worker: sends one queued message; a failure the provider may not repeat is thrown to be retried. */
  private async deliver({ messageId }: SendJob): Promise<void> {
    const [claimed] = await this.db
      .update(messages)
      .set({ status: "sending", updatedAt: new Date() })
      .where(and(eq(messages.id, messageId), inArray(messages.status, ["queued", "sending"])))
      .returning();
    // Sent already (a job run twice after a restart), skipped or failed: nothing to do.
    if (!claimed) return;
    const transport = this.config.transports[claimed.channel];
    if (!transport) {
      await this.finish(messageId, { status: "skipped", lastError: `No ${claimed.channel} provider is configured` });
      return;
    }
    try {
      const { providerId } = await transport.send({
        id: claimed.id,
        channel: claimed.channel,
        template: claimed.template,
        recipient: claimed.recipient,
        locale: claimed.locale === "hi" ? "hi" : "en",
        subject: claimed.subject,
        sender: claimed.sender,
        text: claimed.text,
        html: claimed.html,
        values: Object.keys(claimed.values)
          .sort((a, b) => Number(a) - Number(b))
          .map((k) => claimed.values[k]),
        unsubscribe: claimed.channel === "email" ? this.unsubscribeLink(claimed.id) : null,
        attachments: claimed.invoiceId && this.invoicePdf ? [await this.invoicePdf(claimed.invoiceId)] : [],
      });
      await this.finish(messageId, { status: "sent", transport: transport.name, providerId, sentAt: new Date() });
    } catch (error) {
      const reason = (error as Error).message.slice(0, 500);
      if (error instanceof PermanentFailure) {
        await this.finish(messageId, { status: "failed", lastError: reason });
        return;
      }
      await this.finish(messageId, { status: "queued", lastError: reason });
      this.logger.warn("a message could not be sent; it will be tried again", { messageId, error: reason });
      throw error;
    }
  }

  private async finish(messageId: string, set: Partial<typeof messages.$inferInsert>) {
    await this.db
      .update(messages)
      .set({ ...set, updatedAt: new Date(), attempts: sql`${messages.attempts} + 1` })
      .where(eq(messages.id, messageId));
  }

  /** Every retry failed: the message is marked failed for the admins, with its last error. */
  private async giveUp({ messageId }: SendJob): Promise<void> {
    await this.db
      .update(messages)
      .set({ status: "failed", updatedAt: new Date() })
      .where(and(eq(messages.id, messageId), eq(messages.status, "queued")));
    this.logger.warn("a message failed after every retry", { messageId });
  }

  /**
   * The sandbox's messages, newest first, all or those to one address; an e-mail with its HTML
   * part, as a mail client shows it.
   */
  async outbox(to?: string, limit = 100): Promise<(MessageJson & { html?: string })[]> {
    const rows = await this.db
      .select()
      .from(messages)
      .where(and(eq(messages.transport, "sandbox"), to ? eq(messages.recipient, to) : undefined))
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(limit);
    return rows.map((row) => ({ ...toJson(row), ...(row.html ? { html: row.html } : {}) }));
  }

  /** The admins' list, newest first: every message, or those of one status (`failed`: their errors, to retry). */
  async list(status?: MessageStatus, limit = 100): Promise<MessageJson[]> {
    const rows = await this.db
      .select()
      .from(messages)
      .where(status ? eq(messages.status, status) : undefined)
      .orderBy(desc(messages.updatedAt), desc(messages.id))
      .limit(limit);
    return rows.map(toJson);
  }

  /** An admin sends a failed message again. */
  async retry(messageId: string): Promise<MessageJson> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(messages)
        .set({ status: "queued", updatedAt: new Date() })
        .where(and(eq(messages.id, messageId), eq(messages.status, "failed")))
        .returning();
      if (!row) throw notFound(MESSAGE_TEXTS.notFailed);
      await this.queue.enqueue(tx, { messageId });
      return toJson(row);
    });
  }
}
