/**
 * PgBouncer started for the tests and the bench: in front of the PostgreSQL server a URL names,
 * in transaction mode with a small pool per database, so that the app's connections really share
 * server connections (decision 0049). Its own folder, its own port, in the foreground, stopped
 * with the process that started it.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startForeground } from "./foreground.ts";

const BINARY = existsSync("/usr/sbin/pgbouncer") ? "/usr/sbin/pgbouncer" : "pgbouncer";

export const pgbouncerInstalled = () => spawnSync(BINARY, ["--version"]).status === 0;

export interface RunningPgBouncer {
  /** `serverUrl` with PgBouncer's address in place of the server's (same user, same database). */
  url: string;
  stop(): Promise<void>;
}

export async function startPgBouncer(options: {
  dir: string;
  port: number;
  /** The PostgreSQL server it leads to; its user must be let in without a password (trust). */
  serverUrl: string;
  /** Server connections per database and user. */
  poolSize?: number;
  poolMode?: "transaction" | "session";
}): Promise<RunningPgBouncer> {
  const { dir, port, serverUrl, poolSize = 2, poolMode = "transaction" } = options;
  const server = new URL(serverUrl);
  const user = decodeURIComponent(server.username || "postgres");
  writeFileSync(join(dir, "users.txt"), `"${user}" ""\n`);
  writeFileSync(
    join(dir, "pgbouncer.ini"),
    `[databases]
* = host=${server.hostname} port=${server.port || 5432}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = trust
auth_file = ${join(dir, "users.txt")}
pool_mode = ${poolMode}
default_pool_size = ${poolSize}
min_pool_size = 0
reserve_pool_size = 0
max_client_conn = 1000
max_db_connections = ${poolSize}
ignore_startup_parameters = extra_float_digits,options
logfile = ${join(dir, "pgbouncer.log")}
pidfile = ${join(dir, "pgbouncer.pid")}
`,
  );
  // PgBouncer refuses to run as root: then it becomes postgres, which must reach its folder.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chmodSync(dir, 0o777);
  const bouncer = await startForeground({
    name: "pgbouncer",
    command: BINARY,
    args: [...(asRoot ? ["-u", "postgres"] : []), join(dir, "pgbouncer.ini")],
    port,
    stopSignal: "SIGINT",
    log: () => (existsSync(join(dir, "pgbouncer.log")) ? readFileSync(join(dir, "pgbouncer.log"), "utf8") : ""),
  });
  const url = new URL(serverUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return { url: url.toString(), stop: () => bouncer.stop() };
}
