import { describe, expect, it } from "vitest";
import { parseEnv } from "../runtime/env.ts";
import { resolvePaymentConfig, SANDBOX_KEY_ID, SANDBOX_KEY_SECRET, SANDBOX_WEBHOOK_SECRET } from "./config.ts";

const env = (vars: Record<string, string> = {}) => parseEnv({ PORT: "4100", ...vars });

describe("resolvePaymentConfig", () => {
  it("leaves payments off when no key is configured and the sandbox is not switched on: never a sandbox by default", () => {
    expect(resolvePaymentConfig(env())).toMatchObject({
      mode: "off",
      sandbox: false,
      keyId: "",
      keySecret: "",
      webhookSecret: "",
    });
    expect(resolvePaymentConfig(env({ RAZORPAY_SANDBOX: "0" }))).toMatchObject({ mode: "off", sandbox: false });
  });

  it("runs the sandbox with the development secrets when it is switched on without keys", () => {
    expect(resolvePaymentConfig(env({ RAZORPAY_SANDBOX: "1" }))).toEqual({
      mode: "sandbox",
      sandbox: true,
      keyId: SANDBOX_KEY_ID,
      keySecret: SANDBOX_KEY_SECRET,
      webhookSecret: SANDBOX_WEBHOOK_SECRET,
      apiUrl: "http://127.0.0.1:4100/_sandbox/razorpay",
      checkoutScript: "/_sandbox/razorpay/checkout.js",
      webhookTarget: { url: "http://127.0.0.1:4100/api/payment/webhook", host: "localhost" },
    });
  });

  it("uses Razorpay itself with real keys, and needs both secrets", () => {
    const config = resolvePaymentConfig(
      env({ RAZORPAY_KEY_ID: "rzp_live_a", RAZORPAY_KEY_SECRET: "s", RAZORPAY_WEBHOOK_SECRET: "w" }),
    );
    expect(config).toMatchObject({
      mode: "razorpay",
      sandbox: false,
      keyId: "rzp_live_a",
      keySecret: "s",
      webhookSecret: "w",
      apiUrl: "https://api.razorpay.com",
      checkoutScript: "https://checkout.razorpay.com/v1/checkout.js",
    });
    expect(() => resolvePaymentConfig(env({ RAZORPAY_KEY_ID: "rzp_live_a", RAZORPAY_WEBHOOK_SECRET: "w" }))).toThrow(
      "RAZORPAY_KEY_SECRET must be set when RAZORPAY_KEY_ID is",
    );
    expect(() => resolvePaymentConfig(env({ RAZORPAY_KEY_ID: "rzp_live_a", RAZORPAY_KEY_SECRET: "s" }))).toThrow(
      "RAZORPAY_WEBHOOK_SECRET must be set when RAZORPAY_KEY_ID is",
    );
  });

  it("forces the sandbox with RAZORPAY_SANDBOX=1, signing with the configured secrets", () => {
    const config = resolvePaymentConfig(
      env({
        RAZORPAY_KEY_ID: "rzp_test_a",
        RAZORPAY_KEY_SECRET: "s",
        RAZORPAY_SANDBOX: "1",
        HOST: "10.0.0.5",
        PLATFORM_HOSTS: "pathshala.in",
      }),
    );
    expect(config).toMatchObject({
      sandbox: true,
      keyId: "rzp_test_a",
      keySecret: "s",
      webhookSecret: SANDBOX_WEBHOOK_SECRET,
      apiUrl: "http://10.0.0.5:4100/_sandbox/razorpay",
      webhookTarget: { url: "http://10.0.0.5:4100/api/payment/webhook", host: "pathshala.in" },
    });
  });

  it("follows RAZORPAY_API_URL", () => {
    expect(
      resolvePaymentConfig(
        env({ RAZORPAY_SANDBOX: "1", RAZORPAY_API_URL: "http://127.0.0.1:9999/_sandbox/razorpay/" }),
      ),
    ).toMatchObject({
      apiUrl: "http://127.0.0.1:9999/_sandbox/razorpay",
      webhookTarget: { url: "http://127.0.0.1:9999/api/payment/webhook" },
    });
  });
});
