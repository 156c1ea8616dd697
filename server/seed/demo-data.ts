import type { PlanFeature } from "../db/schema/index.ts";

/** The spec's static fallback plans (§3), in rupees. Also shown when the plan service fails. */
export const FALLBACK_PLANS: {
  name: string;
  description: string;
  monthly: number;
  quarterly: number;
  yearly: number;
  isPopular: boolean;
  features: PlanFeature[];
}[] = [
  {
    name: "1 Year Plan",
    description: "Everything a single-branch institute needs to go online.",
    monthly: 5000,
    quarterly: 14000,
    yearly: 50000,
    isPopular: false,
    features: planFeatures(),
  },
  {
    name: "3 Year Plan",
    description: "Our most chosen plan for growing coaching institutes.",
    monthly: 7000,
    quarterly: 20000,
    yearly: 70000,
    isPopular: true,
    features: planFeatures(),
  },
  {
    name: "5 Year Plan",
    description: "Long-term value for established multi-batch institutes.",
    monthly: 10000,
    quarterly: 28000,
    yearly: 100000,
    isPopular: false,
    features: planFeatures(),
  },
];

function planFeatures(): PlanFeature[] {
  return [
    { name: "From Control", description: "Manage admissions and enquiries from one dashboard", included: true },
    { name: "Home Page", description: "A branded website on your own domain", included: true },
    { name: "AI-Chatbot", description: "Answers student questions around the clock", included: true },
  ];
}

export interface DemoAccount {
  role: "business" | "creator" | "student";
  name: string;
  email: string;
  password: string;
}

/** Sign-in details of the embedded demo (never seeded on PostgreSQL unless asked). */
export const DEMO_ACCOUNTS: DemoAccount[] = [
  { role: "business", name: "Anita Sharma", email: "business@example.com", password: "demo-business-2025" },
  { role: "creator", name: "Rahul Verma", email: "creator@example.com", password: "demo-creator-2025" },
  { role: "student", name: "Priya Das", email: "student@example.com", password: "demo-student-2025" },
  { role: "business", name: "Kavita Iyer", email: "trial@example.com", password: "demo-trial-2025" },
];

/** An institute on its 14-day free trial (owned by trial@example.com): 9 days left when seeded. */
export const DEMO_TRIAL_CENTER = {
  slug: "demo-trial",
  instituteName: "Pragati Coaching Centre",
  customDomain: "demo-trial.localhost",
  templateId: "t3",
  ownerEmail: "trial@example.com",
  plan: "1 Year Plan",
  startedDaysAgo: 5,
} as const;

/** A teacher the demo owner has invited to Sunrise Academy's team, who has not accepted yet. */
export const DEMO_PENDING_INVITE = "meera.iyer@example.com";
/** A teacher Sunrise has invited (decision 0039), so its Team page shows staff and teachers too. */
export const DEMO_TEACHER_INVITE = "arjun.teacher@example.com";

export const DEMO_CENTERS = [
  { slug: "demo-t1", instituteName: "Sunrise Academy", customDomain: "demo-t1.localhost", templateId: "t1" },
  { slug: "demo-t2", instituteName: "Vidya JEE & NEET Classes", customDomain: "demo-t2.localhost", templateId: "t2" },
] as const;
