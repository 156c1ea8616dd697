import { describe, expect, it } from "vitest";
import { GatewayError, type PaymentGateway } from "./gateway.ts";
import { OAuthGateway } from "./oauth.ts";

/**
 * An account connected by OAuth makes its recurring payment calls with its access token: each is
 * handed to the gateway of the current token, and one the API refuses (401) is made again once
 * with a refreshed token.
 */

type Calls = Pick<
  PaymentGateway,
  "createCustomer" | "createMandateOrder" | "fetchPayment" | "fetchToken" | "createRecurringPayment" | "cancelToken"
>;

const END = new Date("2027-03-31T06:30:00Z");
const calls: [keyof Calls, (g: Calls) => Promise<unknown>, unknown][] = [
  ["createCustomer", (g) => g.createCustomer({ name: "Meera Iyer" }), { id: "cust_A" }],
  [
    "createMandateOrder",
    (g) =>
      g.createMandateOrder({
        method: "upi",
        customerId: "cust_A",
        amount: 100,
        maxAmount: 1000,
        expireAt: END,
        receipt: "r",
      }),
    { id: "order_A", amount: 100, currency: "INR", receipt: "r", status: "created" },
  ],
  ["fetchPayment", (g) => g.fetchPayment("pay_A"), { id: "pay_A" }],
  ["fetchToken", (g) => g.fetchToken("cust_A", "token_A"), { id: "token_A" }],
  [
    "createRecurringPayment",
    (g) =>
      g.createRecurringPayment({
        orderId: "order_A",
        customerId: "cust_A",
        tokenId: "token_A",
        amount: 100,
        email: "m@example.com",
        contact: "+919876543210",
        description: "fees",
      }),
    { paymentId: "pay_R" },
  ],
  ["cancelToken", (g) => g.cancelToken("cust_A", "token_A"), undefined],
];

/** An OAuth gateway whose first access token is refused by every call, and what each token was asked. */
function connected() {
  const asked: string[] = [];
  let refreshed = 0;
  const gateway = new OAuthGateway({
    name: "sandbox",
    publicToken: "rzp_test_oauth_A",
    checkoutScript: "",
    checkoutSecret: "client-secret",
    webhookSecret: "partner-webhook-secret",
    tokens: {
      current: async () => "expired-token",
      replace: async (refused) => {
        expect(refused).toBe("expired-token");
        refreshed += 1;
        return "fresh-token";
      },
    },
    build: (token) =>
      new Proxy({} as PaymentGateway, {
        get: (_, method: string) => async () => {
          asked.push(`${token} ${method}`);
          if (token === "expired-token") throw new GatewayError("Access token expired", 401);
          return calls.find(([name]) => name === method)![2];
        },
      }),
  });
  return { gateway, asked, refreshes: () => refreshed };
}

describe("OAuthGateway's recurring payment calls", () => {
  it.each(calls)(
    "%s is made with the access token, and again once with a refreshed one after a 401",
    async (name, call, result) => {
      const { gateway, asked, refreshes } = connected();
      expect(await call(gateway)).toEqual(result);
      expect(asked).toEqual([`expired-token ${name}`, `fresh-token ${name}`]);
      expect(refreshes()).toBe(1);
    },
  );

  it("passes any other refusal on as it is, without refreshing", async () => {
    const gateway = new OAuthGateway({
      name: "sandbox",
      publicToken: "rzp_test_oauth_A",
      checkoutScript: "",
      checkoutSecret: "client-secret",
      webhookSecret: "partner-webhook-secret",
      tokens: {
        current: async () => "token",
        replace: async () => {
          throw new Error("must not refresh");
        },
      },
      build: () =>
        ({
          createRecurringPayment: async () => {
            throw new GatewayError("The amount is more than the maximum amount allowed by the mandate", 400);
          },
        }) as unknown as PaymentGateway,
    });
    await expect(
      gateway.createRecurringPayment({
        orderId: "order_A",
        customerId: "cust_A",
        tokenId: "token_A",
        amount: 100,
        email: "m@example.com",
        contact: "+919876543210",
        description: "fees",
      }),
    ).rejects.toMatchObject({
      status: 400,
      message: "The amount is more than the maximum amount allowed by the mandate",
    });
  });
});
