import type { Context, Hono } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { escapeHtml, simplePage } from "../http/html.ts";
import { UNSUBSCRIBE_TEXTS } from "#common/messages.ts";

/**
 * The link at the foot of every e-mail (and its List-Unsubscribe header): the recipient stops
 * promotional e-mail (transactional messages, such as a password reset, always go). The page asks
 * first, so a mail scanner that opens links unsubscribes nobody; a mail client's one-click POST
 * (RFC 8058) unsubscribes at once.
 */
export function mountUnsubscribe(app: Hono<AppEnv>, deps: Pick<AppDeps, "services">): void {
  const { messages } = deps.services;
  /** The e-mail address a link names, or the page saying the link is not valid. */
  const addressOf = async (c: Context<AppEnv>) => {
    c.header("Cache-Control", "no-store");
    const target = await messages.recipientOf(c.req.param("id") ?? "");
    if (target?.channel === "email") return { address: target.recipient };
    const { unknown, unknownBody } = UNSUBSCRIBE_TEXTS;
    return { refused: c.html(simplePage(unknown, unknown, unknownBody), 404) };
  };
  app.get("/unsubscribe/:id", async (c) => {
    const { address, refused } = await addressOf(c);
    if (!address) return refused;
    return c.html(confirmPage(address, await messages.optedOut("email", address)));
  });
  app.post("/unsubscribe/:id", async (c) => {
    const { address, refused } = await addressOf(c);
    if (!address) return refused;
    await messages.optOut("email", address);
    const { done, doneBody } = UNSUBSCRIBE_TEXTS;
    return c.html(simplePage(done, done, doneBody(address)));
  });
}

function confirmPage(recipient: string, already: boolean): string {
  const body = already
    ? `<p>${escapeHtml(UNSUBSCRIBE_TEXTS.doneBody(recipient))}</p>`
    : `<p>${escapeHtml(UNSUBSCRIBE_TEXTS.ask(recipient))}</p>
<form method="post"><button type="submit">${UNSUBSCRIBE_TEXTS.button}</button></form>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${UNSUBSCRIBE_TEXTS.title} | Pathshala</title><meta name="robots" content="noindex">
<style>
body{margin:0;min-height:100vh;display:grid;place-items:center;font-family:system-ui,-apple-system,"Segoe UI",sans-serif;background:#f8fafc;color:#0f172a}
main{max-width:32rem;padding:2rem;text-align:center}
h1{font-size:1.75rem;margin:0 0 .75rem}
p{color:#475569;line-height:1.6;margin:0 0 1.25rem}
button{font:inherit;font-weight:600;color:#fff;background:#4f46e5;border:0;border-radius:.5rem;padding:.7rem 1.25rem;cursor:pointer}
</style></head>
<body><main><h1>${UNSUBSCRIBE_TEXTS.title}</h1>${body}</main></body></html>`;
}
