import { describe, expect, it } from "vitest";
import { emailHtml, orderedValues, PLATFORM_BRAND, renderTemplate, TEMPLATES } from "./templates.ts";
import { e164 } from "./phone.ts";

describe("message templates", () => {
  it("render every template in English and Hindi, naming the brand", () => {
    const brand = { name: "Sunrise Academy", color: "#0f766e", sender: "Sunrise Academy via Pathshala" };
    // Every value each template names, from its own list (a value a template forgets shows as "undefined").
    const values = (id: keyof typeof TEMPLATES) =>
      Object.fromEntries(TEMPLATES[id].order.map((key) => [key, `‹${key}›`])) as never;
    for (const id of Object.keys(TEMPLATES) as (keyof typeof TEMPLATES)[]) {
      for (const locale of ["en", "hi"] as const) {
        const rendered = renderTemplate(id, values(id), locale, brand);
        expect(rendered.subject.length, `${id} ${locale}`).toBeGreaterThan(5);
        expect(rendered.text).not.toMatch(/undefined/);
      }
    }
    expect(renderTemplate("password-reset", { name: "Asha", link: "L" }, "en", brand).subject).toBe(
      "Reset your Sunrise Academy password",
    );
  });

  it("write the fee reminders in the product's words, English and Hindi, with the pay address last", () => {
    const brand = { name: "Sunrise Academy", color: "#0f766e", sender: "Sunrise Academy via Pathshala" };
    const v = {
      name: "Asha",
      amount: "₹20,000",
      label: "First instalment",
      date: "15 June 2027",
      institute: "Sunrise Academy",
      link: "https://sunrise.example/student/fees",
    };
    expect(renderTemplate("fee-reminder-before", v, "en", brand).text).toBe(
      "Asha, ₹20,000 for First instalment is due on 15 June 2027 at Sunrise Academy. Pay: https://sunrise.example/student/fees",
    );
    expect(renderTemplate("fee-reminder-after", v, "hi", brand).text).toBe(
      "Asha, Sunrise Academy में First instalment के ₹20,000 की अंतिम तारीख 15 June 2027 थी और यह अभी बाकी है। भुगतान करें: https://sunrise.example/student/fees",
    );
    expect(orderedValues("fee-reminder-on", v)).toEqual(Object.values(v));
  });

  it("ask a student to pay a due in the product's words, the link last", () => {
    const values = {
      name: "Priya Das",
      institute: "Sunrise Academy",
      amount: "₹40,000",
      label: "Second instalment",
      date: "Jan 15, 2027",
      link: "https://rzp.io/i/abc",
    };
    expect(renderTemplate("fee-payment-link", values, "en", PLATFORM_BRAND)).toEqual({
      subject: "Sunrise Academy: pay ₹40,000 for Second instalment",
      text: "Priya Das, Sunrise Academy asks you to pay ₹40,000 for Second instalment, due Jan 15, 2027: https://rzp.io/i/abc",
    });
    expect(orderedValues("fee-payment-link", values)).toEqual([
      "Priya Das",
      "Sunrise Academy",
      "₹40,000",
      "Second instalment",
      "Jan 15, 2027",
      "https://rzp.io/i/abc",
    ]);
  });

  it("give WhatsApp and SMS the values in their approved order", () => {
    expect(orderedValues("seminar-booked", { time: "10:30 AM", date: "13 Sep" })).toEqual(["13 Sep", "10:30 AM"]);
    expect(orderedValues("password-reset", { link: "L", name: "Asha" })).toEqual(["Asha", "L"]);
  });

  it("escape values in the e-mail's HTML, link only the product's own link, and never trust a colour", () => {
    const html = emailHtml(
      {
        subject: "s",
        text: 'Hello <script>alert(1)</script> & "you" https://evil.example/x\n\nhttps://example.com/a?b=1&c=2 javascript:alert(1)',
      },
      { name: "<b>Evil</b>", color: "red;background:url(x)", sender: "<b>Evil</b> via Pathshala" },
      undefined,
      "https://example.com/a?b=1&c=2",
    );
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain("&lt;b&gt;Evil&lt;/b&gt;");
    expect(html).toContain('<a href="https://example.com/a?b=1&amp;c=2"');
    expect(html.match(/<a /g)).toHaveLength(1);
    expect(html).toContain("https://evil.example/x");
    expect(html).not.toContain('href="https://evil');
    expect(html).not.toContain('href="javascript');
    expect(html).toContain(PLATFORM_BRAND.color);
    // A link value that is not an http(s) address is never made one.
    expect(
      emailHtml({ subject: "s", text: "javascript:alert(1)" }, PLATFORM_BRAND, undefined, "javascript:alert(1)"),
    ).not.toContain("<a ");
  });

  it("names the language of a Hindi e-mail, and of its English opt-out link", () => {
    const hindi = renderTemplate("welcome", { name: "Meera", link: "https://example.com/s" }, "hi", PLATFORM_BRAND);
    const html = emailHtml(hindi, PLATFORM_BRAND, "https://example.com/unsubscribe/1", undefined, "hi");
    expect(html).toContain('<html lang="hi">');
    expect(html).toContain('<p lang="en" ');
    expect(emailHtml(hindi, PLATFORM_BRAND)).toContain('<html lang="en">');
  });
});

describe("phone numbers for WhatsApp and SMS", () => {
  it("become E.164, Indian mobiles by default, or null", () => {
    expect(e164("98765 43210")).toBe("+919876543210");
    expect(e164("098765-43210")).toBe("+919876543210");
    expect(e164("91 98765 43210")).toBe("+919876543210");
    expect(e164("+44 20 7946 0958")).toBe("+442079460958");
    expect(e164("12345")).toBeNull();
    expect(e164("033 4000 1234")).toBeNull();
    expect(e164("")).toBeNull();
  });
});
