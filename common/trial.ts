import * as v from "valibot";
import { WIZARD_FIELDS } from "./validation/setup.ts";

/** Spec §9: a 14-day trial. */
export const TRIAL_DAYS = 14;
/** The pricing FAQ's 30-day money-back guarantee. */
export const REFUND_WINDOW_DAYS = 30;

export const TRIAL_TEXTS = {
  start: "Start 14-day free trial",
  started: "Your 14-day free trial has started",
  ownerUsed: "You have already used your free trial. Buy a plan to keep going.",
  ownerHasInstitute: "The free trial is for your first institute. Buy a plan to keep going.",
  /** Subscription Plan's badge for a trial that is running. */
  running: "Free trial",
  ownDomain: "This domain already runs your institute's website. Buy a plan to renew it.",
  buy: "Buy plan",
} as const;

/**
 * Where every 'Start Free Trial' leads: the setup wizard in trial mode (a trial needs the
 * institute's details, and the role chooser at /get-started would lose the intent).
 */
export const TRIAL_START_PATH = "/pricing/setup?trial=1";

/** POST /api/trial: the setup wizard's fields, without a price (nothing is paid). */
export const TrialSchema = v.object(WIZARD_FIELDS);
export type TrialInput = v.InferOutput<typeof TrialSchema>;

/** The center a trial made, as POST /api/trial answers it. */
export interface TrialCenterJson {
  _id: string;
  slug: string;
  instituteName: string;
  /** The institute's own domain once proven (null until then: see `pendingDomain`). */
  domain: string | null;
  /** The domain the trial asked for, until its owner proves it is theirs (Setup Details). */
  pendingDomain: string | null;
  /** `{slug}.{PLATFORM_DOMAIN}`: the address that works at once, before the domain is proven (null without a platform domain). */
  workingHost: string | null;
  plan: string | null;
  billing: string | null;
  status: "trial";
  trialEndsAt: string;
  expiresAt: string;
}

/** Whether a center is on a trial that has not ended. */
export function onTrial(center: { trialEndsAt: string | Date | null }, now = Date.now()): boolean {
  return center.trialEndsAt !== null && new Date(center.trialEndsAt).getTime() > now;
}
