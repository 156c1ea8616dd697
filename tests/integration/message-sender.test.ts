import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, isNotNull } from "drizzle-orm";
import { messages } from "../../server/db/schema/index.ts";
import { seedDemo } from "../../server/seed/demo.ts";
import { NAME_READS_AS_PLATFORM, readsAsPlatformName } from "#common/platform-name.ts";
import { CENTER_TEXTS } from "#common/validation/centers.ts";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { bearer, postJson, registerUser, uniqueEmail } from "../helpers/http.ts";
import { createCenter } from "../helpers/centers.ts";
import { adminToken } from "../helpers/payments.ts";

/**
 * Issue 37 §1: an institute's name cannot pose as the platform's in a message's subject or
 * sender, on any channel. Such names are refused when an institute is named; one that exists
 * anyway (made before, or by a tool) is shown as the institute's address; and every institute's
 * e-mail comes from "{institute} via Pathshala", which the platform's own never does.
 */

let t: TestApp;
let ips = 0;
const from = () => ({ "x-forwarded-for": `203.0.113.${++ips % 250}` });

beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: "1" });
  await seedDemo(t.database.db);
});
afterAll(() => t.close());

async function written(to: string, template: string) {
  await t.services.afterAnswer.settled();
  return t.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.recipient, to), eq(messages.template, template)));
}

describe("naming an institute", () => {
  it("refuses a name that reads as Pathshala's, in a trial, an order and an admin's sub center", async () => {
    const owner = await registerUser(t, "business");
    const order = (name: string) => ({
      institute: name,
      domain: `${Math.random().toString(36).slice(2, 10)}.example.com`,
      owner: "Asha Rao",
      email: owner.email,
      phone: "",
      plan: "3 Year Plan",
      billing: "monthly",
    });
    for (const name of ["Pathshala", "Pathshala Support", "Pathshala Security Team", "PATHSHALA.in", "Pаthshala"]) {
      for (const path of ["/api/trial", "/api/payment/create-order"]) {
        const res = await postJson(t, path, order(name), { headers: { ...bearer(owner.access_token), ...from() } });
        expect(res.status, `${path} ${name}`).toBe(400);
        expect((await res.json()).error).toBe(NAME_READS_AS_PLATFORM);
      }
    }
    const admin = bearer(await adminToken(t));
    const sub = await postJson(
      t,
      "/api/centers",
      { name: "Pathshala Security Team", domain: "security-team.example.com" },
      { headers: admin },
    );
    expect(sub.status).toBe(400);
    expect((await sub.json()).error).toBe(CENTER_TEXTS.nameReadsAsPlatform);
    // An institute of its own with the word in its name is fine ("pathshala" is Hindi for school).
    const own = await postJson(t, "/api/trial", order("Gyan Pathshala"), {
      headers: { ...bearer(owner.access_token), ...from() },
    });
    expect(own.status).toBe(201);
  });
});

describe("an institute's messages", () => {
  it("come from the institute via Pathshala, under its own name; the platform's from Pathshala", async () => {
    const center = await createCenter(t, null, { instituteName: "Sunrise\u202e Academy\n" });
    const student = await registerUser(t, "student", { host: center.customDomain! });
    await postJson(t, "/api/auth/forgot", { email: student.email }, { host: center.customDomain!, headers: from() });
    const [mail] = await written(student.email, "password-reset");
    expect(mail.sender).toBe("Sunrise Academy via Pathshala");
    expect(mail.subject).toBe("Reset your Sunrise Academy password");

    const creator = await registerUser(t, "creator");
    await postJson(t, "/api/auth/forgot", { email: creator.email }, { headers: from() });
    const [own] = await written(creator.email, "password-reset");
    expect(own.sender).toBe("Pathshala");
    expect(own.subject).toBe("Reset your Pathshala password");
  });

  it("show a name that reads as Pathshala's (made before names were checked) as the institute's address, on every channel", async () => {
    for (const name of ["Pathshala Security Team", "Pаthshala", "Pathshala Support", "PathshaIa Official"]) {
      const center = await createCenter(t, null, { instituteName: name });
      const host = center.customDomain!;
      const student = await registerUser(t, "student", { host });
      await postJson(t, "/api/auth/forgot", { email: student.email }, { host, headers: from() });
      const [reset] = await written(student.email, "password-reset");
      const [welcome] = await written(student.email, "welcome");
      const visitor = uniqueEmail("parent");
      const enquiry = await postJson(
        t,
        "/api/enquiries",
        { name: "Ravi Kumar", phone: "98765 12345", email: visitor, kind: "Enquire" },
        { host, headers: from() },
      );
      expect(enquiry.status).toBe(201);
      const [thanks] = await written(visitor, "enquiry-acknowledged");
      const [whatsapp] = await written("+919876512345", "enquiry-acknowledged").then((rows) =>
        rows.filter((r) => r.centerId === center.id),
      );

      expect(reset.subject, name).toBe(`Reset your ${host} password`);
      expect(reset.sender, name).toBe(`${host} via Pathshala`);
      expect(welcome.subject, name).toBe(`Welcome to ${host}`);
      expect(thanks.subject, name).toBe(`${host} has your enquiry`);
      // WhatsApp's approved template gets the institute as a value: the address, too.
      expect(Object.values(whatsapp.values), name).toContain(host);
      for (const row of [reset, welcome, thanks, whatsapp])
        for (const field of [row.subject, row.sender, row.text, row.html, ...Object.values(row.values)])
          expect(field ?? "", name).not.toContain(name);
    }
  });

  it("never carry a sender or subject that reads as Pathshala's, but the platform's own", async () => {
    const rows = await t.database.db
      .select({ centerId: messages.centerId, sender: messages.sender, subject: messages.subject })
      .from(messages)
      .where(isNotNull(messages.sender));
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      if (row.centerId === null) {
        expect(row.sender).toBe("Pathshala");
        continue;
      }
      expect(row.sender).toMatch(/ via Pathshala$/);
      expect(readsAsPlatformName(row.sender!.replace(/ via Pathshala$/, "")), row.sender!).toBe(false);
    }
  });
});
