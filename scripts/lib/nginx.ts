/**
 * nginx started for the tests and the bench: the shipped micro-cache
 * (deploy/nginx/pathshala.conf.template, rendered as the nginx image renders it) or a static
 * file server, each in its own folder, one worker, stopped with the process that started it.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startForeground } from "./foreground.ts";

export const TEMPLATE = join(import.meta.dirname, "../../deploy/nginx/pathshala.conf.template");

export const nginxInstalled = () => spawnSync("nginx", ["-v"]).status === 0;

export interface RunningNginx {
  port: number;
  stop(): Promise<void>;
}

/** The template with its ${NAME} variables replaced, as envsubst does with only these defined. */
export function renderTemplate(variables: Record<string, string>): string {
  return readFileSync(TEMPLATE, "utf8").replace(/\$\{(\w+)\}/g, (whole, name: string) => variables[name] ?? whole);
}

/** The shipped micro-cache on 127.0.0.1:`port`, in front of the app at `upstream` (host:port). */
export function startDeployNginx(options: { dir: string; port: number; upstream: string }): Promise<RunningNginx> {
  const { dir, port, upstream } = options;
  const site = renderTemplate({
    PATHSHALA_LISTEN: `127.0.0.1:${port}`,
    PATHSHALA_UPSTREAM: upstream,
    PATHSHALA_CACHE_DIR: join(dir, "cache"),
  });
  return startNginx(dir, port, site);
}

/**
 * nginx serving the files under `root` (with `$host` in it, each host its own folder), with
 * `locations` (each a location block) for the headers each path is sent with.
 */
export function startStaticNginx(options: {
  dir: string;
  port: number;
  root: string;
  locations?: string[];
}): Promise<RunningNginx> {
  const { dir, port, root, locations = [] } = options;
  const site = `server {
  listen 127.0.0.1:${port};
  root ${root};
  server_tokens off;
  types { }
  default_type text/html;
  ${locations.join("\n  ")}
}`;
  return startNginx(dir, port, site);
}

/** Its own folder (configuration, temporary files, logs), its own pid, in the foreground. */
async function startNginx(dir: string, port: number, site: string): Promise<RunningNginx> {
  mkdirSync(join(dir, "tmp"), { recursive: true });
  // Started as root, nginx's worker runs as nobody: it must write its cache and temporary files.
  for (const sub of ["", "tmp"]) chmodSync(join(dir, sub), 0o777);
  writeFileSync(
    join(dir, "nginx.conf"),
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_requests 1000000;
  client_body_temp_path ${dir}/tmp/body;
  proxy_temp_path ${dir}/tmp/proxy;
  fastcgi_temp_path ${dir}/tmp/fastcgi;
  uwsgi_temp_path ${dir}/tmp/uwsgi;
  scgi_temp_path ${dir}/tmp/scgi;
  ${site.replaceAll("\n", "\n  ")}
}
`,
  );
  const nginx = await startForeground({
    name: "nginx",
    command: "nginx",
    args: ["-c", join(dir, "nginx.conf"), "-p", dir, "-g", "daemon off;"],
    port,
    stopSignal: "SIGQUIT",
    log: () => readFileSync(join(dir, "error.log"), "utf8"),
  });
  return { port, stop: () => nginx.stop() };
}
