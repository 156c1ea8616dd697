import type { Server } from "node:http";

/**
 * Node ends any request still running after 5 minutes (requestTimeout). A 2 GB video on a slow
 * connection takes far longer, so that limit is lifted; instead a connection that moves no data
 * for 5 minutes is closed, and slow request headers are still cut off by headersTimeout (60 s).
 */
export function allowLongUploads(server: Pick<Server, "requestTimeout" | "setTimeout">): void {
  server.requestTimeout = 0;
  server.setTimeout(5 * 60 * 1000);
}
