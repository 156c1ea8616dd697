import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
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
import { PROOF_PATH, txtName, txtValue } from "#common/domains.ts";
import { centers, domainClaims } from "../../server/db/schema/index.ts";
import { eq } from "drizzle-orm";

const caddyAvailable = spawnSync("caddy", ["version"]).status === 0;

interface Answer {
  status: number;
  body: string;
  altNames: string;
  location?: string;
}

/** GET over https with `servername` as SNI (and Host, unless another is given). */
function get(port: number, servername: string, path = "/", host = servername): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: "127.0.0.1",
        port,
        servername,
        path,
        headers: { host },
        rejectUnauthorized: false,
        timeout: 15_000,
      },
      (res) => {
        const cert = (res.socket as TLSSocket).getPeerCertificate();
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body,
            altNames: cert.subjectaltname ?? "",
            location: res.headers.location,
          }),
        );
      },
    );
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.end();
  });
}

/** GET over plain http (Caddy's port 80). */
function getPlain(port: number, host: string, path: string): Promise<Omit<Answer, "altNames">> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, headers: { host }, timeout: 15_000 }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, location: res.headers.location }));
    });
    req.on("error", reject);
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.end();
  });
}

/**
 * Debian's caddy with `tls internal` on-demand in front of the app, as deploy/Caddyfile sets it
 * up, and the app configured as a real deployment: a real platform domain, TRUST_PROXY, no
 * message provider and no sandbox switched on.
 */
describe.skipIf(!caddyAvailable)("Caddy on-demand TLS in front of the app", () => {
  let t: TestApp;
  let app: ServerType;
  let caddy: ChildProcess;
  let httpsPort: number;
  let httpPort: number;
  let claimed: { centerId: string; domain: string };
  const dir = mkdtempSync(join(tmpdir(), "pathshala-caddy-"));

  beforeAll(async () => {
    t = await createTestApp({
      TRUST_PROXY: "1",
      PLATFORM_DOMAIN: "pathshala.in",
      MESSAGES_SANDBOX: "0",
      RAZORPAY_SANDBOX: "0",
    });
    await createCenter(t, null, {
      instituteName: "Secure Scholars",
      slug: "secure",
      customDomain: "secure-scholars.in",
    });
    // Asked for and not proven yet.
    const pending = await createCenter(t, null, {
      instituteName: "Patient Academy",
      slug: "patient",
      customDomain: null,
    });
    claimed = { centerId: pending.id, domain: "patient-academy.in" };
    await t.services.domains.claim(t.database.db, pending.id, claimed.domain);
    const appPort = await freePort();
    httpsPort = await freePort();
    httpPort = await freePort();
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
http:// {
	handle /.well-known/pathshala-domain/* {
		reverse_proxy 127.0.0.1:${appPort}
	}
	handle {
		redir https://{host}{uri} permanent
	}
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
    const res = await get(httpsPort, "secure-scholars.in");
    expect(res.status).toBe(200);
    expect(res.body).toContain("Secure Scholars");
    expect(res.altNames).toContain("DNS:secure-scholars.in");
  }, 30_000);

  it("fails the TLS handshake for a domain no institute uses", async () => {
    await expect(get(httpsPort, "nobody-here.in")).rejects.toThrow();
  }, 30_000);

  it("issues a certificate for the www. twin of a bound domain, which leads to the domain", async () => {
    const res = await get(httpsPort, "www.secure-scholars.in", "/catalog");
    expect(res.altNames).toContain("DNS:www.secure-scholars.in");
    expect(res.status).toBe(301);
    expect(res.location).toBe("https://secure-scholars.in/catalog");
  }, 30_000);

  it("gives a domain only asked for no certificate, but passes its HTTP proof through on plain http", async () => {
    await expect(get(httpsPort, claimed.domain)).rejects.toThrow();
    await expect(get(httpsPort, `www.${claimed.domain}`)).rejects.toThrow();
    const [claim] = await t.database.db.select().from(domainClaims).where(eq(domainClaims.centerId, claimed.centerId));
    const proof = await getPlain(httpPort, claimed.domain, `${PROOF_PATH}${claim.token}`);
    expect(proof.status).toBe(200);
    expect(proof.body).toBe(await t.services.domains.answer(claimed.domain, claim.token));
    // Everything else on plain http goes to https.
    const home = await getPlain(httpPort, claimed.domain, "/");
    expect(home.status).toBe(301);
    expect(home.location).toBe(`https://${claimed.domain}/`);
    // Proven (here by its TXT record), it gets its certificate and its site.
    t.dns.records.set(txtName(claimed.domain), [txtValue(claim.token)]);
    const owner = (await t.database.db.select().from(centers).where(eq(centers.id, claimed.centerId)))[0];
    expect((await t.services.domains.verify(owner)).proven).toBe(true);
    const served = await get(httpsPort, claimed.domain);
    expect(served.status).toBe(200);
    expect(served.body).toContain("Patient Academy");
  }, 60_000);

  it("never shows the sandbox outbox, however the request names localhost (issue 37 §4)", async () => {
    for (const path of ["/_sandbox/outbox", "/_sandbox/outbox.json"]) {
      // Through Caddy on a live domain, with the Host a client chose: Caddy passes it on as X-Forwarded-Host.
      const viaTls = await get(httpsPort, "secure-scholars.in", path, "localhost");
      expect(viaTls.status, path).toBe(404);
      expect(viaTls.body).not.toContain("Sandbox outbox");
      const viaHttp = await getPlain(httpPort, "localhost", path);
      expect(viaHttp.status).toBe(301);
    }
  }, 30_000);
});
