import { Hono } from "hono";
import * as v from "valibot";
import type { AppEnv } from "../http/types.ts";
import type { AppDeps } from "../app.ts";
import { input, operation } from "./openapi.ts";
import { allow, idParam, platformOnly } from "./guards.ts";
import { MESSAGE_STATUSES, MESSAGE_TEXTS } from "#common/messages.ts";

const MessagesQuery = v.object({
  status: v.optional(
    v.pipe(
      v.picklist(MESSAGE_STATUSES, `Status must be one of ${MESSAGE_STATUSES.join(", ")}`),
      v.description("only messages in this state (failed: to retry)"),
    ),
  ),
});

/** /api/messages: the outbox as admins see it, and sending a failed message again (issue 30). */
export function messagesRouter({ services }: AppDeps) {
  const api = new Hono<AppEnv>();
  api.use(platformOnly);
  api.get(
    "/",
    operation({
      tag: "messages",
      auth: "admin",
      summary: "The latest 100 messages (e-mail, WhatsApp, SMS), newest first, with their state and last error",
      responses: {
        200: "{messages: [{id, channel, to, template, subject?, text, status, attempts, error, createdAt, sentAt}]}",
        400: "Invalid query",
      },
    }),
    allow("admin"),
    input("query", MessagesQuery),
    async (c) => {
      c.header("Cache-Control", "no-store");
      return c.json({ messages: await services.messages.list(c.req.valid("query").status) });
    },
  );
  api.post(
    "/:id/retry",
    operation({
      tag: "messages",
      auth: "admin",
      summary: "Send a failed message again",
      responses: {
        200: `{success, message: "${MESSAGE_TEXTS.retried}", retried: {id, channel, to, status, …}}`,
        404: MESSAGE_TEXTS.notFailed,
      },
    }),
    allow("admin"),
    async (c) => {
      const retried = await services.messages.retry(idParam(c, MESSAGE_TEXTS.notFailed));
      return c.json({ success: true, message: MESSAGE_TEXTS.retried, retried });
    },
  );
  return api;
}
