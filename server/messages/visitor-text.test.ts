import { describe, expect, it } from "vitest";
import { valuesToSend, withoutWebAddresses } from "./visitor-text.ts";

describe("text people typed, as messages send it", () => {
  it("loses anything that reads as a web address", () => {
    const addresses = [
      "evil.com",
      "EVIL.COM",
      "bit.ly/x",
      "t.me/spam",
      "wa.me/919876543210",
      "win.click/now!",
      "evil.xyz",
      "a.b.c.app",
      "sub.evil.co.uk/path?q=1#f",
      "evil.com:8080/x",
      "evil.com.",
      "https://evil.com/a",
      "HTTPS://EVIL.COM",
      "http://1.2.3.4/x",
      "1.2.3.4",
      "ftp://x",
      "javascript:alert(1)",
      "mailto:a@b.com",
      "www.evil.com/a",
      "www3.evil",
      "someone@evil.com",
      "xn--80ak6aa92e.com",
      "xn--80ak6aa92e.xn--p1ai",
      "пример.рф",
      // Look-alikes: full-width letters and dots, the ideographic full stop, [.] and (dot), invisible characters.
      "ｅｖｉｌ．ｃｏｍ",
      "evil。com",
      "evil[.]com",
      "evil (dot) com",
      "evil{.}com",
      "e\u200Bvil.com",
      "evil\u00AD.com",
      "evil\u200C.com",
      "\u202Emoc.live",
    ];
    for (const address of addresses) {
      expect(withoutWebAddresses(`Ravi ${address} Kumar`), address).toBe("Ravi Kumar");
      expect(withoutWebAddresses(address), address).toBe("");
    }
  });

  it("keeps names, numbers, dates and prices as they are", () => {
    const kept = [
      "Ravi Kumar",
      "Dr.Sharma",
      "A.K. Sharma",
      "St.Xavier's",
      "रवि कुमार",
      "क्षत्रिय",
      "Ch.3 Motion",
      "Delhi. In the evening",
      "₹1,180.00",
      "26.11.2026 at 6.30 pm",
      "Call 9876543210",
      "Sunrise Academy",
      "Hello\n\nWorld",
      "x.y",
    ];
    for (const text of kept) expect(withoutWebAddresses(text), text).toBe(text);
  });

  it("cannot be made to join into an address by what is taken out", () => {
    expect(withoutWebAddresses("evil.cwww.x.yom")).not.toMatch(/evil\.com/);
    expect(withoutWebAddresses("evil.co https://x.y m")).toBe("m");
  });

  it("is quick on long text", () => {
    const long = `${"a".repeat(20_000)} ${"a-".repeat(10_000)} ${"a.".repeat(10_000)}`;
    const started = performance.now();
    withoutWebAddresses(long);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("is cleaned in every value of a message but the product's link, an address kept on purpose, and a lead notice to staff", () => {
    expect(valuesToSend("welcome", { name: "Win at evil.com", link: "https://pathshala.in/student" })).toEqual({
      name: "Win at",
      link: "https://pathshala.in/student",
    });
    expect(
      valuesToSend("email-change", { name: "Asha bit.ly/x", email: "new@example.com", link: "https://p.in/c" }),
    ).toEqual({ name: "Asha", email: "new@example.com", link: "https://p.in/c" });
    const lead = {
      institute: "Sunrise",
      kind: "Enquire",
      name: "Ravi evil.com",
      phone: "98765",
      email: "r@x.com",
      program: "",
      message: "see https://evil.com",
      link: "https://p.in/business/leads",
    };
    expect(valuesToSend("enquiry-received", lead)).toEqual(lead);
  });
});
