import type { Context, Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { escapeHtml } from "../http/html.ts";
import type { MessageJson } from "../messages/service.ts";
import { CHANNEL_NAMES } from "#common/messages.ts";
import { errorBody } from "../http/errors.ts";
import { formatTime } from "#common/time.ts";

/**
 * The message sandbox's outbox (MESSAGES_SANDBOX=1: `npm start` and the tests): what would have
 * been e-mailed, sent on WhatsApp or by SMS, newest first, so a newcomer can follow a password
 * reset link from here. It exists only while the sandbox is switched on, on every host alike;
 * nothing a request says (its Host above all) decides whether it is shown. Switched off, its
 * paths are a plain 404 on every host.
 */
export function mountMessageSandbox(app: Hono<AppEnv>, deps: Pick<AppDeps, "services">): void {
  const { messages } = deps.services;
  if (!messages.sandbox) {
    app.all("/_sandbox/outbox*", (c) => c.json(errorBody("Not found"), 404));
    return;
  }
  // `?to=` an address: only the messages sent to it (a newcomer's own, a test's).
  const listed = (c: Context<AppEnv>) => messages.outbox(c.req.query("to")?.trim() || undefined);
  app.get("/_sandbox/outbox.json", async (c) => {
    c.header("Cache-Control", "no-store");
    const list = await listed(c);
    return c.json({
      messages: list.map(({ id, channel, to, template, subject, from, text, createdAt, attachment }) => ({
        id,
        channel,
        to,
        template,
        ...(subject ? { subject } : {}),
        ...(from ? { from } : {}),
        text,
        createdAt,
        ...(attachment ? { attachment } : {}),
      })),
    });
  });
  app.get("/_sandbox/outbox", async (c) => {
    c.header("Cache-Control", "no-store");
    return c.html(outboxPage(await listed(c)));
  });
}

/** Text with its links made clickable; everything else escaped. */
function linked(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}

/**
 * An e-mail's body as its reader sees it: the HTML part in a sandboxed frame (no scripts, no
 * forms, no access to this page), the text part a toggle away; a message without HTML, its text.
 */
function body(m: MessageJson & { html?: string }): string {
  const text = `<pre>${linked(m.text)}</pre>`;
  if (!m.html) return text;
  return `<iframe class="html" sandbox="allow-popups allow-popups-to-escape-sandbox" title="${escapeHtml(`HTML part of the e-mail to ${m.to}`)}" srcdoc="${escapeHtml(m.html)}"></iframe>
<details class="text"><summary>Show the text part</summary>${text}</details>`;
}

function outboxPage(list: (MessageJson & { html?: string })[]): string {
  const items = list
    .map(
      (m) => `<article aria-label="${escapeHtml(`${CHANNEL_NAMES[m.channel]} to ${m.to}`)}">
<header><span class="channel">${CHANNEL_NAMES[m.channel]}</span> to <strong>${escapeHtml(m.to)}</strong>
<time datetime="${m.createdAt}">${escapeHtml(formatTime(m.createdAt))}</time></header>
${m.from ? `<p class="from">From ${escapeHtml(m.from)}</p>` : ""}${m.subject ? `<h2>${escapeHtml(m.subject)}</h2>` : ""}${body(m)}
${m.attachment ? `<p class="attachment">Attached: <a href="${escapeHtml(m.attachment)}">invoice PDF</a> (opens for its buyer, signed in)</p>` : ""}
<footer>Template ${escapeHtml(m.template)}</footer></article>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sandbox outbox | Pathshala</title><meta name="robots" content="noindex">
<style>
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;background:#f8fafc;color:#0f172a}
main{max-width:48rem;margin:0 auto;padding:1.5rem}
h1{font-size:1.5rem;margin:0 0 .25rem}
.lead{color:#475569;margin:0 0 1.5rem}
article{background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:1rem;margin:0 0 1rem}
header{display:flex;flex-wrap:wrap;gap:.5rem;align-items:baseline;font-size:.875rem}
time{margin-left:auto;color:#64748b}
.channel{background:#eef2ff;color:#3730a3;border-radius:999px;padding:.1rem .6rem;font-weight:600}
h2{font-size:1rem;margin:.75rem 0 0}
pre{white-space:pre-wrap;word-break:break-word;font:inherit;line-height:1.6;margin:.5rem 0}
a{color:#4338ca}
footer{font-size:.75rem;color:#64748b}
.from{font-size:.875rem;color:#475569;margin:.5rem 0 0}
.attachment{font-size:.875rem;margin:.25rem 0 .5rem}
iframe.html{display:block;width:100%;height:28rem;border:1px solid #e2e8f0;border-radius:.5rem;margin:.5rem 0;background:#fff}
details.text summary{cursor:pointer;font-size:.875rem;color:#4338ca;margin:.25rem 0}
</style></head>
<body><main><h1>Sandbox outbox</h1>
<p class="lead">The message sandbox is on (MESSAGES_SANDBOX=1): messages for channels without a provider are kept here instead of being sent. Newest first.</p>
${items || "<p>No messages yet.</p>"}
</main></body></html>`;
}
