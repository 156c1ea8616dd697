import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RouterContextProvider } from "react-router";
import { requestContext, type RequestContext } from "../../server/middleware/context.ts";
import { marketingLayoutData } from "../../app/lib/marketing.server.ts";
import { SETTINGS_CHANNEL } from "../../server/services/settings.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { adminToken } from "../helpers/payments.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { announcementsSettled, waitFor } from "../helpers/wait.ts";

let t: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  t = await createTestApp();
  admin = bearer(await adminToken(t));
});
afterAll(() => t.close());

const layout = () => {
  const provider = new RouterContextProvider();
  provider.set(requestContext, {
    requestId: "r1",
    auth: null,
    secure: false,
    meta: { ip: "1.2.3.4" },
    site: { kind: "platform", host: "localhost" },
    services: t.services,
  } as unknown as RequestContext);
  return marketingLayoutData(new Request("http://localhost/contact"), provider);
};

describe("the platform's public contacts (footer, /contact)", () => {
  it("are what admins set in Platform Settings, and a change shows on the next page", async () => {
    await waitFor(() => t.services.settings.settingsVersion() !== undefined);
    const before = t.services.settings.settingsVersion();
    const saved = await postJson(
      t,
      "/api/settings",
      {
        supportEmail: "Help@Example.org",
        supportPhone: "+91 98765 43210",
        supportChatUrl: "https://chat.example.org/pathshala",
        legalAddress: "12 Park Street, Kolkata 700016",
      },
      { method: "PUT", headers: admin },
    );
    expect(saved.status).toBe(200);
    // The kept pages (decision 0018) are kept under this version: a change must move it.
    expect(t.services.settings.settingsVersion()).not.toBe(before);
    expect((await layout()).contacts).toEqual({
      email: "help@example.org",
      phone: "+91 98765 43210",
      chatUrl: "https://chat.example.org/pathshala",
      legalName: null,
      address: "12 Park Street, Kolkata 700016",
    });
    await announcementsSettled(t.database, SETTINGS_CHANNEL);
    const cleared = await postJson(
      t,
      "/api/settings",
      { supportEmail: "help2@example.org" },
      { method: "PUT", headers: admin },
    );
    expect(cleared.status).toBe(200);
    expect((await layout()).contacts).toMatchObject({
      email: "help2@example.org",
      phone: null,
      chatUrl: null,
      address: null,
    });
  });
});
