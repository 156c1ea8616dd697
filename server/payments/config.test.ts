import { describe, expect, it } from "vitest";
import { parseEnv } from "../runtime/env.ts";
import {
  PaymentConfigError,
  resolvePaymentConfig,
  SANDBOX_KEY_ID,
  SANDBOX_KEY_SECRET,
  SANDBOX_PARTNER_CLIENT_ID,
  SANDBOX_PARTNER_CLIENT_SECRET,
  SANDBOX_PARTNER_WEBHOOK_SECRET,
  SANDBOX_WEBHOOK_SECRET,
} from "./config.ts";

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
      partner: {
        clientId: SANDBOX_PARTNER_CLIENT_ID,
        clientSecret: SANDBOX_PARTNER_CLIENT_SECRET,
        webhookSecret: SANDBOX_PARTNER_WEBHOOK_SECRET,
        authorizeUrl: "/_sandbox/razorpay/oauth/authorize",
        tokenUrl: "http://127.0.0.1:4100/_sandbox/razorpay/oauth/token",
        revokeUrl: "http://127.0.0.1:4100/_sandbox/razorpay/oauth/revoke",
      },
    });
  });

  it("offers 'Connect with Razorpay' only with a partner application configured, or in the sandbox", () => {
    const keys = { RAZORPAY_KEY_ID: "rzp_live_a", RAZORPAY_KEY_SECRET: "s", RAZORPAY_WEBHOOK_SECRET: "w" };
    // Real keys without partner credentials: keys only, never the sandbox's partner.
    expect(resolvePaymentConfig(env(keys)).partner).toBeNull();
    expect(resolvePaymentConfig(env()).partner).toBeNull();
    expect(
      resolvePaymentConfig(env({ RAZORPAY_PARTNER_CLIENT_ID: "cid", RAZORPAY_PARTNER_CLIENT_SECRET: "cs" })).partner,
    ).toBeNull();
    expect(
      resolvePaymentConfig(
        env({
          ...keys,
          RAZORPAY_PARTNER_CLIENT_ID: "cid",
          RAZORPAY_PARTNER_CLIENT_SECRET: "cs",
          RAZORPAY_PARTNER_WEBHOOK_SECRET: "pw",
        }),
      ).partner,
    ).toEqual({
      clientId: "cid",
      clientSecret: "cs",
      webhookSecret: "pw",
      authorizeUrl: "https://auth.razorpay.com/authorize",
      tokenUrl: "https://auth.razorpay.com/token",
      revokeUrl: "https://auth.razorpay.com/revoke",
    });
    for (const missing of ["RAZORPAY_PARTNER_CLIENT_SECRET", "RAZORPAY_PARTNER_WEBHOOK_SECRET"]) {
      const vars: Record<string, string> = {
        ...keys,
        RAZORPAY_PARTNER_CLIENT_ID: "cid",
        RAZORPAY_PARTNER_CLIENT_SECRET: "cs",
        RAZORPAY_PARTNER_WEBHOOK_SECRET: "pw",
      };
      delete vars[missing];
      expect(() => resolvePaymentConfig(env(vars))).toThrow(PaymentConfigError);
      expect(() => resolvePaymentConfig(env(vars))).toThrow(missing);
    }
    // The sandbox with a configured partner application and auth URL uses them.
    expect(
      resolvePaymentConfig(
        env({ RAZORPAY_SANDBOX: "1", RAZORPAY_PARTNER_CLIENT_ID: "cid", RAZORPAY_AUTH_URL: "http://auth.test/" }),
      ).partner,
    ).toMatchObject({
      clientId: "cid",
      clientSecret: SANDBOX_PARTNER_CLIENT_SECRET,
      authorizeUrl: "http://auth.test/authorize",
      tokenUrl: "http://auth.test/token",
      revokeUrl: "http://auth.test/revoke",
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
