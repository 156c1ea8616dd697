import { afterAll, afterEach, describe, expect, it } from "vitest";
import { SETTINGS_TEXTS } from "#common/validation/settings.ts";
import { bearer, postJson, registerUser } from "../helpers/http.ts";
import { adminToken } from "../helpers/payments.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";

const apps: TestApp[] = [];
afterEach(async () => {
  while (apps.length) await apps.pop()!.close();
});
afterAll(async () => {
  while (apps.length) await apps.pop()!.close();
});

async function app(env: Record<string, string> = {}) {
  const t = await createTestApp(env);
  apps.push(t);
  return t;
}

const put = (t: TestApp, body: unknown, headers: Record<string, string>) =>
  postJson(t, "/api/settings", body, { method: "PUT", headers });

describe("/api/settings", () => {
  it("is for admins only, on the platform", async () => {
    const t = await app();
    expect((await t.request("/api/settings")).status).toBe(401);
    const business = await registerUser(t, "business");
    expect((await t.request("/api/settings", { headers: bearer(business.access_token) })).status).toBe(403);
    expect((await put(t, { supportEmail: "x@example.com" }, bearer(business.access_token))).status).toBe(403);
  });

  it("refuses a JSON list in place of the settings, and keeps them", async () => {
    const t = await app();
    const admin = bearer(await adminToken(t));
    expect((await put(t, { supportEmail: "help@example.com" }, admin)).status).toBe(200);
    for (const body of ["[]", JSON.stringify([{ supportEmail: "" }])]) {
      const res = await put(t, body, admin);
      expect(res.status, body).toBe(400);
      expect((await res.json()).error).toBe("The request body must be a JSON object, not a list.");
    }
    const now = await (await t.request("/api/settings", { headers: admin })).json();
    expect(now.stored.supportEmail).toBe("help@example.com");
  });

  it("takes its first defaults from the environment", async () => {
    const t = await app({
      DNS_TARGET_IP: "203.0.113.10",
      DNS_TARGET_HOST: "sites.pathshala.in",
      SUPPORT_EMAIL: "help@pathshala.in",
      SUPPORT_PHONE: "+91 33 4000 1234",
      SUPPORT_CHAT_URL: "https://chat.pathshala.in",
      PLATFORM_LEGAL_NAME: "Pathshala Learning Pvt Ltd",
      PLATFORM_GSTIN: "19AABCP1234C1ZX",
    });
    const admin = bearer(await adminToken(t));
    const body = await (await t.request("/api/settings", { headers: admin })).json();
    expect(body.stored.supportEmail).toBeNull();
    expect(body.effective).toMatchObject({
      dnsTargetIp: "203.0.113.10",
      dnsTargetHost: "sites.pathshala.in",
      supportEmail: "help@pathshala.in",
      supportPhone: "+91 33 4000 1234",
      supportChatUrl: "https://chat.pathshala.in",
      legalName: "Pathshala Learning Pvt Ltd",
      gstin: "19AABCP1234C1ZX",
    });
  });

  it("on a default install still names real targets and a real address: the platform's own and the first admin's", async () => {
    const t = await app();
    const email = `first.admin.${Date.now()}@example.com`;
    const admin = bearer(await adminToken(t, email));
    const body = await (await t.request("/api/settings", { headers: admin })).json();
    expect(body.effective).toMatchObject({ dnsTargetHost: "localhost", dnsTargetIp: "127.0.0.1", supportEmail: email });
  });

  it("stores what admins enter, over the defaults; an empty field goes back to the default", async () => {
    const t = await app({ SUPPORT_EMAIL: "help@pathshala.in" });
    const admin = bearer(await adminToken(t));
    const saved = await put(
      t,
      {
        supportEmail: "Care@Example.com",
        supportPhone: "+91 98300 12345",
        dnsTargetIp: "198.51.100.7",
        dnsTargetHost: "Edge.Example.com.",
        gstin: "19aabcp1234c1zx",
        legalName: "Example Learning LLP",
        legalAddress: "12 Park Street, Kolkata 700016",
        supportChatUrl: "https://wa.me/919830012345",
      },
      admin,
    );
    expect(saved.status).toBe(200);
    const { settings } = await saved.json();
    expect(settings.effective).toMatchObject({
      supportEmail: "care@example.com",
      dnsTargetIp: "198.51.100.7",
      dnsTargetHost: "edge.example.com",
      gstin: "19AABCP1234C1ZX",
    });
    const back = await (await put(t, { ...settings.stored, supportEmail: "" }, admin)).json();
    expect(back.settings.stored.supportEmail).toBeNull();
    expect(back.settings.effective.supportEmail).toBe("help@pathshala.in");
    expect(back.settings.effective.dnsTargetIp).toBe("198.51.100.7");
  });

  it("refuses bad input with the field's words and changes nothing", async () => {
    const t = await app();
    const admin = bearer(await adminToken(t));
    await put(t, { supportPhone: "+91 98300 12345" }, admin);
    for (const [field, value, message] of [
      ["dnsTargetIp", "300.1.1.1", SETTINGS_TEXTS.dnsTargetIp],
      ["dnsTargetHost", "not a host", SETTINGS_TEXTS.dnsTargetHost],
      ["supportEmail", "nobody", SETTINGS_TEXTS.supportEmail],
      ["supportPhone", "call me", SETTINGS_TEXTS.supportPhone],
      ["supportChatUrl", "javascript:alert(1)", SETTINGS_TEXTS.supportChatUrl],
      ["gstin", "12345", SETTINGS_TEXTS.gstin],
      // The right shape with a wrong check character: a typo caught before it is printed on invoices.
      ["gstin", "19AABCP1234C1Z5", SETTINGS_TEXTS.gstin],
      ["legalName", 42, SETTINGS_TEXTS.legalName],
      ["sacCode", "99929", SETTINGS_TEXTS.sacCode],
      ["gstRate", "17", SETTINGS_TEXTS.gstRate],
      ["gstRate", "18.5", SETTINGS_TEXTS.gstRate],
    ] as const) {
      const res = await put(t, { [field]: value }, admin);
      expect(res.status, field).toBe(400);
      expect((await res.json()).error, field).toBe(message);
    }
    const body = await (await t.request("/api/settings", { headers: admin })).json();
    expect(body.stored.supportPhone).toBe("+91 98300 12345");
    expect(body.effective).toMatchObject({ sacCode: "999293", gstRate: "18" });
    // A rate written with its per cent sign is kept as the number.
    expect((await put(t, { gstRate: "12 %", sacCode: "999294" }, admin)).status).toBe(200);
    const saved = await (await t.request("/api/settings", { headers: admin })).json();
    expect(saved.stored).toMatchObject({ gstRate: "12", sacCode: "999294" });
  });
});
