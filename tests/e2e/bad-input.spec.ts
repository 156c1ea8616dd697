import { expect, test } from "./fixtures.ts";

/**
 * What the built server answers bad input on the pages: the public forms name the field whose
 * text cannot be stored, a broken cookie is as good as none, and a method or body a page cannot
 * take is a 4xx that says so. Never a 500.
 */
/** An institute's domain, asked on the server's own address (this client does not resolve *.localhost). */
const institute = { host: `demo-t1.localhost:${process.env.E2E_PORT}` };
const BROKEN_COOKIES = "pathshala_session=%E0%A4%A; pathshala_theme=%ZZ; pathshala_toast=%; pathshala_center=%E0";

test("a malformed %-encoded cookie is ignored as absent on every page", async ({ request }) => {
  for (const path of ["/", "/pricing", "/invest", "/auth", "/catalog", "/dashboard"]) {
    const res = await request.get(path, { headers: { cookie: BROKEN_COOKIES } });
    expect(res.status(), path).toBe(200);
  }
  const signedOutArea = await request.get("/business", { headers: { cookie: BROKEN_COOKIES }, maxRedirects: 0 });
  expect(signedOutArea.status()).toBe(302);
  expect(signedOutArea.headers().location).toContain("/auth?");
  expect((await request.get("/", { headers: { ...institute, cookie: BROKEN_COOKIES } })).status()).toBe(200);
});

test("the registration form answers text that cannot be stored with its field's error", async ({ request }) => {
  const form = {
    intent: "register",
    role: "student",
    name: "Asha\u0000Rao",
    email: `nul.${Date.now().toString(36)}@example.com`,
    password: "correct-horse-battery",
    confirmPassword: "correct-horse-battery",
  };
  const res = await request.post("/auth", { form });
  expect(res.status()).toBe(400);
  expect(await res.text()).toContain("Full name contains characters that cannot be stored.");
  // Nothing was made: the same person can still register.
  const ok = await request.post("/auth", { form: { ...form, name: "Asha Rao" }, maxRedirects: 0 });
  expect(ok.status()).toBe(302);
});

test("the seminar booking and an institute's enquiry form refuse a NUL with the field's name", async ({ request }) => {
  const booking = await request.post("/api/book", {
    data: {
      fullName: "Asha\u0000",
      email: "seminar.nul@example.com",
      phoneNumber: "+91 98300 12345",
      city: "Kolkata",
      country: "India",
      date: "2099-01-01",
      time: "10:00 AM",
    },
  });
  expect(booking.status()).toBe(400);
  expect((await booking.json()).error).toBe("Full name contains characters that cannot be stored.");

  const enquiry = await request.post("/enquiry", {
    headers: institute,
    form: { name: "Ravi\u0000", phone: "9830012345", email: "ravi@example.com" },
  });
  expect(enquiry.status()).toBe(400);
  expect(await enquiry.text()).toContain("Your name contains characters that cannot be stored.");
});

test("a page asked with a method or body it cannot take answers 405 or 400, never 500", async ({ request }) => {
  for (const method of ["PUT", "PATCH", "DELETE", "OPTIONS"]) {
    const res = await request.fetch("/auth", { method });
    expect(res.status(), method).toBe(405);
    expect(res.headers().allow).toBe("GET, HEAD, POST");
  }
  const noAction = await request.post("/pricing", { form: { a: "b" } });
  expect(noAction.status()).toBe(405);
  expect(noAction.headers().allow).toBe("GET, HEAD");

  const noBody = await request.post("/auth");
  expect(noBody.status()).toBe(400);
  expect(await noBody.text()).toContain("This form could not be read");
  const brokenMultipart = await request.post("/auth", {
    headers: { "content-type": "multipart/form-data; boundary=zz" },
    data: "not a multipart body",
  });
  expect(brokenMultipart.status()).toBe(400);

  const nulInAddress = await request.get("/catalog?q=a%00b");
  expect(nulInAddress.status()).toBe(400);
  expect(await nulInAddress.text()).toContain("q contains characters that cannot be stored.");
});
