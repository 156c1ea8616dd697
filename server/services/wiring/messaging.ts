import type { Database } from "../../db/types.ts";
import type { Env } from "../../runtime/env.ts";
import type { Logger } from "../../runtime/logger.ts";
import { MessageService } from "../../messages/service.ts";
import { JobQueue, SEND_RETRIES } from "../../messages/queue.ts";
import { resolveMessagingConfig } from "../../messages/config.ts";
import { SiteLinks } from "../../messages/links.ts";

/** Messages and the links they carry: what almost every other feature sends through. */
export interface MessagingServices {
  /** Every link a message carries is built here (decision 0028). */
  links: SiteLinks;
  messages: MessageService;
}

export function createMessaging(env: Env, database: Database, logger: Logger): MessagingServices {
  const links = new SiteLinks(env);
  const messages = new MessageService({
    db: database.db,
    queue: new JobQueue(database, logger.child({ component: "jobs" }), SEND_RETRIES, {
      expireInSeconds: env.JOB_EXPIRY_SECONDS,
      superviseIntervalSeconds: env.JOB_SUPERVISE_SECONDS,
    }),
    config: resolveMessagingConfig(env),
    logger: logger.child({ component: "messages" }),
    links,
  });
  return { links, messages };
}
