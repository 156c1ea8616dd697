import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpsRequest } from "node:https";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve, type ServerType } from "@hono/node-server";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createCenter } from "../helpers/centers.ts";
import { freePort } from "../../scripts/lib/free-port.ts";

const caddyAvailable = spawnSync("caddy", ["version"]).status === 0;

function get(port: number, servername: string): Promise<{ status: number; body: string; altNames: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: "127.0.0.1",
        port,
        servername,
        path: "/",
        headers: { host: servername },
        rejectUnauthorized: false,
        timeout: 15_000,
      },
      (res) => {
        const cert = (res.socket as TLSSocket).getPeerCertificate();
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, altNames: cert.subjectaltname ?? "" }));
      },
    );
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.end();
  });
}

/** Debian's caddy with `tls internal` on-demand in front of the app, as deploy/Caddyfile sets it up. */
describe.skipIf(!caddyAvailable)("Caddy on-demand TLS in front of the app", () => {
  let t: TestApp;
  let app: ServerType;
  let caddy: ChildProcess;
  let httpsPort: number;
  const dir = mkdtempSync(join(tmpdir(), "pathshala-caddy-"));

  beforeAll(async () => {
    t = await createTestApp({ TRUST_PROXY: "1" });
    await createCenter(t, null, {
      instituteName: "Secure Scholars",
      slug: "secure",
      customDomain: "secure-scholars.test",
    });
    const appPort = await freePort();
    httpsPort = await freePort();
    const httpPort = await freePort();
    app = serve({ fetch: t.app.fetch, port: appPort, hostname: "127.0.0.1" });
    writeFileSync(
      join(dir, "Caddyfile"),
      `{
	admin off
	skip_install_trust
	auto_https disable_redirects
	http_port ${httpPort}
	https_port ${httpsPort}
	local_certs
	storage file_system ${join(dir, "data")}
	on_demand_tls {
		ask http://127.0.0.1:${appPort}/api/domains/ask
	}
}
https:// {
	tls internal {
		on_demand
	}
	reverse_proxy 127.0.0.1:${appPort}
}
`,
    );
    caddy = spawn("caddy", ["run", "--config", join(dir, "Caddyfile"), "--adapter", "caddyfile"], {
      env: {
        ...process.env,
        XDG_DATA_HOME: join(dir, "xdg-data"),
        XDG_CONFIG_HOME: join(dir, "xdg-config"),
        HOME: dir,
      },
      stdio: "ignore",
    });
    const until = Date.now() + 20_000;
    for (;;) {
      const open = await new Promise<boolean>((resolve) => {
        const socket = createServer();
        socket.once("error", () => resolve(true));
        socket.listen(httpsPort, "127.0.0.1", () => socket.close(() => resolve(false)));
      });
      if (open) break;
      if (Date.now() > until) throw new Error("caddy did not start");
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 60_000);

  afterAll(async () => {
    caddy?.kill("SIGTERM");
    app?.close();
    await t?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("issues a certificate for a live institute's domain and serves its site over https", async () => {
    const res = await get(httpsPort, "secure-scholars.test");
    expect(res.status).toBe(200);
    expect(res.body).toContain("Secure Scholars");
    expect(res.altNames).toContain("DNS:secure-scholars.test");
  }, 30_000);

  it("fails the TLS handshake for a domain no institute uses", async () => {
    await expect(get(httpsPort, "nobody-here.test")).rejects.toThrow();
  }, 30_000);
});
