import { eq } from "drizzle-orm";
import { centers, users } from "../db/schema/index.ts";
import type { Services } from "../services/index.ts";
import type { Db } from "../db/types.ts";
import { homeFor } from "#common/home.ts";
import { accountHome } from "../services/account-home.ts";
import { DEMO_ACCOUNTS, DEMO_CENTERS } from "./demo-data.ts";

/**
 * What the demo's sandbox outbox holds on a fresh start, made through the real messaging layer:
 * the demo accounts' welcome e-mails, a lead left on Sunrise Academy's site (the owner is told,
 * the visitor thanked on WhatsApp and by e-mail), and one on Vidya's from a number in Dubai, whose
 * WhatsApp thanks are held back (the institute sends to Indian numbers only) for the admins' list;
 * and the absence alert of the demo batch's latest class (server/seed/demo-attendance.ts), which
 * the clock would write within the minute, written at once.
 */
export async function seedDemoMessages(db: Db, services: Services): Promise<void> {
  await db.transaction(async (tx) => {
    for (const account of DEMO_ACCOUNTS) {
      const [user] = await tx.select().from(users).where(eq(users.email, account.email));
      if (!user) continue;
      const home = await accountHome(tx, user);
      await services.messages.send(tx, {
        template: "welcome",
        values: { name: user.name, link: services.links.to(home.center, homeFor(user.role)) },
        to: { email: user.email, userId: user.id },
        centerId: home.centerId,
      });
    }
  });
  await services.absenceAlerts.run();
  const [sunrise] = await db.select({ id: centers.id }).from(centers).where(eq(centers.slug, DEMO_CENTERS[0].slug));
  if (!sunrise) return;
  await services.enquiries.create(sunrise.id, {
    name: "Ravi Kumar",
    phone: "9876543210",
    email: "ravi.parent@example.com",
    program: "NEET UG",
    message: "Is there an evening batch for Class 12?",
    kind: "Book Demo",
  });
  const [vidya] = await db.select({ id: centers.id }).from(centers).where(eq(centers.slug, DEMO_CENTERS[1].slug));
  if (!vidya) return;
  await services.enquiries.create(vidya.id, {
    name: "Fatima Khan",
    phone: "+971501234567",
    email: "fatima.parent@example.com",
    program: "JEE Main",
    message: "We live in Dubai. Are the classes online too?",
    kind: "Enquire",
  });
}
