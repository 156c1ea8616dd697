import { describe, expect, it } from "vitest";
import { switchOnDemoSandboxes } from "./demo-sandboxes.ts";

describe("switchOnDemoSandboxes (npm start, npm run dev)", () => {
  it("switches both sandboxes on for a laptop's demo", () => {
    const env: NodeJS.ProcessEnv = {};
    expect(switchOnDemoSandboxes(env)).toEqual(["RAZORPAY_SANDBOX=1", "MESSAGES_SANDBOX=1"]);
    expect(env).toMatchObject({ RAZORPAY_SANDBOX: "1", MESSAGES_SANDBOX: "1" });
  });

  it("leaves an area alone that the environment sets up: its keys, its providers, or the switch itself", () => {
    const env: NodeJS.ProcessEnv = {
      RAZORPAY_KEY_ID: "rzp_live_x",
      SMTP_URL: "smtp://mail",
      PLATFORM_DOMAIN: "pathshala.test",
    };
    expect(switchOnDemoSandboxes(env)).toEqual([]);
    expect(env.RAZORPAY_SANDBOX).toBeUndefined();
    const off: NodeJS.ProcessEnv = { RAZORPAY_SANDBOX: "0", MESSAGES_SANDBOX: "0" };
    expect(switchOnDemoSandboxes(off)).toEqual([]);
    expect(off).toMatchObject({ RAZORPAY_SANDBOX: "0", MESSAGES_SANDBOX: "0" });
  });

  it("never switches one on for a real platform domain", () => {
    const env: NodeJS.ProcessEnv = { PLATFORM_DOMAIN: "pathshala.in" };
    expect(switchOnDemoSandboxes(env)).toEqual([]);
    expect(env).toEqual({ PLATFORM_DOMAIN: "pathshala.in" });
  });
});
