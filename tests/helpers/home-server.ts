import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import { cachedHomePages } from "../../server/tenant-home.ts";
import { answerCachedHomePagesOnConnections } from "../../server/tenant-home-connections.ts";
import type { TestApp } from "./app.ts";

export interface HomePageServer {
  server: Server;
  port: number;
  /** Requests node:http parsed (the others were answered on the connection). */
  reachedNodeHttp: number;
  /** Requests the Hono app answered (the caches could not). */
  reachedApp: number;
  /** A second server with the Hono app alone: its answers are the app's own. */
  appPort: number;
  close(): Promise<void>;
}

/**
 * A real node:http server in front of the test app, as server/index.ts builds it: cached home
 * pages answered in the request listener, and with `onConnections` on the connection first.
 */
export async function serveHomePages(t: TestApp, options: { onConnections: boolean }): Promise<HomePageServer> {
  const app = getRequestListener(t.app.fetch);
  const listener = cachedHomePages((req, res) => {
    served.reachedApp++;
    return app(req, res);
  }, t);
  const server = createServer((req, res) => {
    served.reachedNodeHttp++;
    return listener(req, res);
  });
  if (options.onConnections) answerCachedHomePagesOnConnections(server, t);
  const appServer = createServer(app);
  const served: HomePageServer = {
    server,
    port: await listen(server),
    reachedNodeHttp: 0,
    reachedApp: 0,
    appPort: await listen(appServer),
    close: () => Promise.all([server, appServer].map(close)).then(() => undefined),
  };
  return served;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
