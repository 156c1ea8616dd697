import type { Channel } from "#common/messages.ts";
import { PLATFORM_NAME } from "#common/platform-name.ts";
import type { MessageLanguage } from "#common/validation/message-language.ts";

/**
 * What the product sends (issue 30 §5), each template in English and Hindi. A template renders
 * plain text for every channel and, for e-mail, a subject and simple branded HTML. WhatsApp and
 * SMS providers hold their own approved copies of these texts (by name, and by DLT id for SMS);
 * the values sent to them are the template's values in order.
 */

/** The languages every template is written in (#common/validation/message-language.ts). */
export type Locale = MessageLanguage;

/** The name and colour a message is branded with: the institute's, or Pathshala's (./branding.ts). */
export interface Brand {
  name: string;
  color: string;
  /** Who an e-mail says it is from (its From name). */
  sender: string;
}
/** The invitable roles in Hindi (the English ones are the product's labels, lower-cased). */
const HINDI_ROLES: Record<string, string> = { teacher: "शिक्षक", staff: "स्टाफ़" };

export const PLATFORM_BRAND: Brand = { name: PLATFORM_NAME, color: "#4f46e5", sender: PLATFORM_NAME };

export interface Rendered {
  subject: string;
  text: string;
}

/**
 * Whose address a message goes to, which decides what the recipient policy checks
 * (server/messages/recipient-policy.ts):
 * - `account` (the default): an account's own address, as stored;
 * - `given`: an address given in the request that writes the message (a number being added, an
 *   invitee, a new e-mail, the sign-up's own): counted per recipient, per requesting account and
 *   network address, and per institute, each day;
 * - `visitor`: an address typed into an anonymous form: counted as `given`, at most one such
 *   confirmation per address in 30 days, and nothing the visitor typed is in it;
 * - `staff`: the institute's own people (a lead notice): the visitor's words are kept as written.
 * In every message but `staff` ones, each value except `link` (the product's own link, the only
 * one an e-mail makes clickable) and those in `kept` loses anything that reads as a web address.
 */
export type Recipient = "account" | "given" | "visitor" | "staff";

interface TemplateDef<V extends Record<string, string>> {
  /** Who gets it, when: the list in docs/messages.md is made from these. */
  when: string;
  channels: readonly Channel[];
  recipient?: Recipient;
  /** Values shown exactly as given besides `link`: an e-mail address the message is about, what an invoice describes. */
  kept?: readonly (keyof V & string)[];
  /** Promotional messages need the recipient's opt-in; transactional ones always go. */
  promotional: boolean;
  /** The values in the order WhatsApp and SMS templates number them ({{1}}, {{2}}, …). */
  order: readonly (keyof V & string)[];
  render: (values: V, locale: Locale, brand: Brand) => Rendered;
}

const template = <V extends Record<string, string>>(def: TemplateDef<V>) => def;

/** A fee reminder's values: whom, how much, for which due, its last date, the institute, and where to pay (its Fees page). */
type FeeReminderValues = { name: string; amount: string; label: string; date: string; institute: string; link: string };
const FEE_REMINDER_ORDER = ["name", "amount", "label", "date", "institute", "link"] as const;

export const TEMPLATES = {
  "password-reset": template<{ name: string; link: string }>({
    when: "Someone asks to reset the password of an account (Forgot password?)",
    channels: ["email"],
    promotional: false,
    order: ["name", "link"],
    render: ({ name, link }, locale, brand) =>
      locale === "hi"
        ? {
            subject: `${brand.name}: अपना पासवर्ड बदलें`,
            text: `नमस्ते ${name},\n\nअपना ${brand.name} पासवर्ड बदलने के लिए यह लिंक खोलें (30 मिनट तक, एक बार):\n${link}\n\nअगर आपने यह नहीं माँगा, तो इस संदेश को अनदेखा करें; आपका पासवर्ड नहीं बदलेगा।`,
          }
        : {
            subject: `Reset your ${brand.name} password`,
            text: `Hello ${name},\n\nOpen this link to choose a new ${brand.name} password. It works once, for 30 minutes:\n${link}\n\nIf you did not ask for this, ignore this message: your password stays as it is.`,
          },
  }),
  "password-changed": template<{ name: string; link: string }>({
    when: "A password is changed (from a reset link, or by its owner signed in): to the account, in case it was not them",
    channels: ["email", "whatsapp", "sms"],
    promotional: false,
    order: ["name", "link"],
    render: ({ name, link }, locale, brand) =>
      locale === "hi"
        ? {
            subject: `आपका ${brand.name} पासवर्ड बदल दिया गया है`,
            text: `नमस्ते ${name}, आपका ${brand.name} पासवर्ड अभी बदला गया है। अगर यह आपने नहीं किया, तो तुरंत नया पासवर्ड चुनें:\n${link}`,
          }
        : {
            subject: `Your ${brand.name} password was changed`,
            text: `Hello ${name}, the password of your ${brand.name} account was just changed. If this was not you, choose a new password at once:\n${link}`,
          },
  }),
  "phone-code": template<{ code: string }>({
    when: "A phone number is being added to an account, or a verified one signs in: the one-time code",
    channels: ["whatsapp", "sms"],
    recipient: "given",
    promotional: false,
    order: ["code"],
    render: ({ code }, locale, brand) =>
      locale === "hi"
        ? {
            subject: `${brand.name} कोड`,
            text: `आपका ${brand.name} कोड ${code} है। यह 10 मिनट तक चलेगा। इसे किसी को न बताएँ।`,
          }
        : {
            subject: `${brand.name} code`,
            text: `Your ${brand.name} code is ${code}. It works for 10 minutes. Do not share it with anyone.`,
          },
  }),
  "email-change": template<{ name: string; email: string; link: string }>({
    when: "An account asks to change its e-mail: to the new address, with the link that confirms it",
    channels: ["email"],
    recipient: "given",
    kept: ["email"],
    promotional: false,
    order: ["name", "email", "link"],
    render: ({ name, email, link }, locale, brand) =>
      locale === "hi"
        ? {
            subject: `${brand.name}: अपना नया ईमेल पक्का करें`,
            text: `नमस्ते ${name}, अपने ${brand.name} खाते का ईमेल ${email} करने के लिए यह लिंक खोलें (24 घंटे तक):\n${link}`,
          }
        : {
            subject: `Confirm your new ${brand.name} e-mail`,
            text: `Hello ${name}, open this link to make ${email} the e-mail of your ${brand.name} account (it works for 24 hours):\n${link}\n\nIf you did not ask for this, ignore this message.`,
          },
  }),
  "email-changed": template<{ name: string; email: string; link: string }>({
    when: "An account's e-mail was changed: to the old address and its verified number, in case it was not them, and to the new address",
    channels: ["email", "whatsapp", "sms"],
    kept: ["email"],
    promotional: false,
    order: ["name", "email", "link"],
    render: ({ name, email, link }, locale, brand) =>
      locale === "hi"
        ? {
            subject: `आपके ${brand.name} खाते का ईमेल बदल गया है`,
            text: `नमस्ते ${name}, आपके ${brand.name} खाते का ईमेल अब ${email} है। अगर यह आपने नहीं किया, तो सहायता से संपर्क करें: ${link}`,
          }
        : {
            subject: `Your ${brand.name} e-mail was changed`,
            text: `Hello ${name}, your ${brand.name} account now signs in with ${email}. If this was not you, contact support at once: ${link}`,
          },
  }),
  welcome: template<{ name: string; link: string }>({
    when: "An account is created (any role)",
    channels: ["email"],
    recipient: "given",
    promotional: false,
    order: ["name", "link"],
    render: ({ name, link }, locale, brand) =>
      locale === "hi"
        ? {
            subject: `${brand.name} में आपका स्वागत है`,
            text: `नमस्ते ${name},\n\n${brand.name} पर आपका खाता बन गया है। यहाँ से शुरू करें:\n${link}`,
          }
        : {
            subject: `Welcome to ${brand.name}`,
            text: `Hello ${name},\n\nYour ${brand.name} account is ready. Start here:\n${link}`,
          },
  }),
  "seminar-booked": template<{ date: string; time: string }>({
    when: "A visitor books the investment seminar on /invest (the product promises a WhatsApp confirmation)",
    channels: ["whatsapp", "email"],
    recipient: "visitor",
    promotional: false,
    order: ["date", "time"],
    render: ({ date, time }, locale, brand) =>
      locale === "hi"
        ? {
            subject: `${brand.name} सेमिनार: आपकी सीट पक्की है`,
            text: `नमस्ते, ${brand.name} सेमिनार में आपकी सीट पक्की है: ${date}, ${time}। हम आपकी प्रतीक्षा करेंगे!`,
          }
        : {
            subject: `Your ${brand.name} seminar seat is confirmed`,
            text: `Hello, your seat at the ${brand.name} seminar is confirmed for ${date} at ${time}. We look forward to seeing you!`,
          },
  }),
  "team-invitation": template<{ institute: string; inviter: string; role: string; link: string }>({
    when: "An institute's owner or staff invites someone to a role there (creator, teacher, staff), by e-mail or to a mobile number",
    channels: ["email", "whatsapp", "sms"],
    recipient: "given",
    promotional: false,
    order: ["institute", "inviter", "role", "link"],
    // `role` is empty for a creator: their invitation reads as it always has.
    render: ({ institute, inviter, role, link }, locale) =>
      locale === "hi"
        ? {
            subject: `${institute} की टीम से जुड़ें`,
            text: role
              ? `${inviter} ने आपको ${institute} में ${HINDI_ROLES[role] ?? role} के रूप में जुड़ने के लिए बुलाया है। न्योता देखें और स्वीकार करें (7 दिन तक):\n${link}`
              : `${inviter} ने आपको ${institute} की टीम में पढ़ाने के लिए बुलाया है। न्योता देखें और स्वीकार करें (7 दिन तक):\n${link}`,
          }
        : {
            subject: `Join ${institute}'s team on Pathshala`,
            text: role
              ? `${inviter} has invited you to join ${institute} on Pathshala as ${/^[aeiou]/.test(role) ? "an" : "a"} ${role}. See the invitation and accept it (the link works for 7 days):\n${link}`
              : `${inviter} has invited you to teach with ${institute} on Pathshala. See the invitation and accept it (the link works for 7 days):\n${link}`,
          },
  }),
  "parent-invitation": template<{ institute: string; child: string; link: string }>({
    when: "An institute's staff, or a student, adds a parent by mobile number: the link to see the consent notice and follow the child",
    channels: ["whatsapp", "sms"],
    recipient: "given",
    promotional: false,
    order: ["institute", "child", "link"],
    render: ({ institute, child, link }, locale) =>
      locale === "hi"
        ? {
            subject: `${institute}: ${child} की पढ़ाई देखें`,
            text: `${institute} आपको ${child} की कक्षाएँ, हाज़िरी, टेस्ट के नतीजे और फ़ीस देखने के लिए बुला रहा है। सहमति की सूचना पढ़ें और उत्तर दें (लिंक 7 दिन तक चलेगा):\n${link}`,
          }
        : {
            subject: `${institute}: follow ${child}'s classes`,
            text: `${institute} invites you to follow ${child}'s classes, attendance, test results and fees. Read the consent notice and answer it (the link works for 7 days):\n${link}`,
          },
  }),
  "enquiry-received": template<{
    institute: string;
    kind: string;
    name: string;
    phone: string;
    email: string;
    program: string;
    message: string;
    link: string;
  }>({
    when: "A visitor leaves an enquiry (Enquire, Apply Now, Book Demo) on an institute's site: to its owner",
    channels: ["email"],
    recipient: "staff",
    promotional: false,
    order: ["institute", "kind", "name", "phone", "email", "program", "message", "link"],
    render: (v, locale) =>
      locale === "hi"
        ? {
            subject: `${v.institute}: नई पूछताछ (${v.kind}) ${v.name} से`,
            text: `${v.name} ने ${v.institute} की वेबसाइट पर पूछताछ छोड़ी है (${v.kind})।\n\nफ़ोन: ${v.phone}\nईमेल: ${v.email}\nकोर्स: ${v.program || "—"}\nसंदेश: ${v.message || "—"}\n\nसभी पूछताछ: ${v.link}`,
          }
        : {
            subject: `New ${v.kind} enquiry from ${v.name}`,
            text: `${v.name} left an enquiry (${v.kind}) on ${v.institute}'s website.\n\nPhone: ${v.phone}\nEmail: ${v.email}\nProgram: ${v.program || "—"}\nMessage: ${v.message || "—"}\n\nAll your leads: ${v.link}`,
          },
  }),
  "enquiry-acknowledged": template<{ institute: string }>({
    when: "A visitor leaves an enquiry on an institute's site: to the visitor",
    channels: ["whatsapp", "email"],
    recipient: "visitor",
    promotional: false,
    order: ["institute"],
    render: ({ institute }, locale) =>
      locale === "hi"
        ? {
            subject: `${institute} को आपकी पूछताछ मिल गई है`,
            text: `नमस्ते, ${institute} को आपकी पूछताछ मिल गई है। हमारी टीम जल्द ही आपसे संपर्क करेगी।`,
          }
        : {
            subject: `${institute} has your enquiry`,
            text: `Hello, thank you for your enquiry. ${institute} has received it and will get in touch with you soon.`,
          },
  }),
  "results-released": template<{ name: string; test: string; link: string }>({
    when: "A test's results are released (by the institute, or when its window closes): to each student who took it",
    channels: ["email"],
    promotional: false,
    order: ["name", "test", "link"],
    render: ({ name, test, link }, locale, brand) =>
      locale === "hi"
        ? {
            subject: `${test}: आपका परिणाम आ गया है`,
            text: `नमस्ते ${name}, ${brand.name} के ${test} का परिणाम आ गया है: अंक, रैंक और हल देखें:\n${link}`,
          }
        : {
            subject: `Your result for ${test} is out`,
            text: `Hello ${name}, the results of ${test} at ${brand.name} are out. See your score, rank and the solutions:\n${link}`,
          },
  }),
  "live-class-reminder": template<{ name: string; title: string; time: string; link: string }>({
    when: "15 minutes before a live class starts: to each student enrolled in it",
    channels: ["whatsapp", "email"],
    promotional: false,
    order: ["name", "title", "time", "link"],
    render: ({ name, title, time, link }, locale, brand) =>
      locale === "hi"
        ? {
            subject: `${title} ${time} पर शुरू हो रही है`,
            text: `नमस्ते ${name}, ${brand.name} की लाइव क्लास "${title}" ${time} पर शुरू हो रही है। यहाँ से जुड़ें:\n${link}`,
          }
        : {
            subject: `${title} starts at ${time}`,
            text: `Hello ${name}, your live class "${title}" with ${brand.name} starts at ${time}. Join it here:\n${link}`,
          },
  }),
  "attendance-absent": template<{
    name: string;
    subject: string;
    batch: string;
    date: string;
    time: string;
    institute: string;
  }>({
    when: "A class's register closes (by its teacher, or 30 minutes after the class ends): to each student marked Absent, once, when the institute has absence alerts on",
    channels: ["whatsapp", "sms"],
    promotional: false,
    order: ["name", "subject", "batch", "date", "time", "institute"],
    render: ({ name, subject, batch, date, time, institute }, locale) =>
      locale === "hi"
        ? {
            subject: `${name} ${subject} की कक्षा में अनुपस्थित`,
            text: `${name} को ${date} को ${time} बजे की ${subject} (${batch}) की कक्षा में अनुपस्थित दर्ज किया गया। — ${institute}`,
          }
        : {
            subject: `${name} was absent from ${subject}`,
            text: `${name} was marked absent from ${subject} (${batch}) on ${date} at ${time}. — ${institute}`,
          },
  }),
  "fee-reminder-before": template<FeeReminderValues>({
    when: "A fee due is coming: the institute's days before its last date (3 unless it chose otherwise), once per due, only if something is still owed",
    channels: ["whatsapp", "sms", "email"],
    promotional: false,
    order: FEE_REMINDER_ORDER,
    render: ({ name, amount, label, date, institute, link }, locale) =>
      locale === "hi"
        ? {
            subject: `${institute}: ${amount} की फ़ीस ${date} तक जमा करें`,
            text: `${name}, ${institute} में ${label} के ${amount} की अंतिम तारीख ${date} है। भुगतान करें: ${link}`,
          }
        : {
            subject: `${institute}: ${amount} fee due on ${date}`,
            text: `${name}, ${amount} for ${label} is due on ${date} at ${institute}. Pay: ${link}`,
          },
  }),
  "fee-reminder-on": template<FeeReminderValues>({
    when: "A fee due's last date is today (unless the institute switched this reminder off), once per due, only if something is still owed",
    channels: ["whatsapp", "sms", "email"],
    promotional: false,
    order: FEE_REMINDER_ORDER,
    render: ({ name, amount, label, date, institute, link }, locale) =>
      locale === "hi"
        ? {
            subject: `${institute}: ${amount} की फ़ीस आज जमा करें`,
            text: `${name}, ${institute} में ${label} के ${amount} की अंतिम तारीख आज, ${date}, है। भुगतान करें: ${link}`,
          }
        : {
            subject: `${institute}: ${amount} fee due today`,
            text: `${name}, ${amount} for ${label} is due today, ${date}, at ${institute}. Pay: ${link}`,
          },
  }),
  "fee-reminder-after": template<FeeReminderValues>({
    when: "A fee due is still unpaid the institute's days after its last date (3 unless it chose otherwise), once per due; and when the institute clicks Remind on its defaulters list, once a day",
    channels: ["whatsapp", "sms", "email"],
    promotional: false,
    order: FEE_REMINDER_ORDER,
    render: ({ name, amount, label, date, institute, link }, locale) =>
      locale === "hi"
        ? {
            subject: `${institute}: ${amount} की फ़ीस बाकी है`,
            text: `${name}, ${institute} में ${label} के ${amount} की अंतिम तारीख ${date} थी और यह अभी बाकी है। भुगतान करें: ${link}`,
          }
        : {
            subject: `${institute}: ${amount} fee overdue`,
            text: `${name}, ${amount} for ${label} was due on ${date} at ${institute} and is still unpaid. Pay: ${link}`,
          },
  }),
  "fee-payment-link": template<{
    name: string;
    institute: string;
    amount: string;
    label: string;
    date: string;
    link: string;
  }>({
    when: "An institute's desk sends a student a payment link for a due (Fees, Send payment link): to the student, once per link",
    channels: ["whatsapp", "sms", "email"],
    promotional: false,
    order: ["name", "institute", "amount", "label", "date", "link"],
    render: ({ name, institute, amount, label, date, link }, locale) =>
      locale === "hi"
        ? {
            subject: `${institute}: ${label} के ${amount} का भुगतान करें`,
            text: `${name}, ${institute} आपसे ${label} के ${amount} का भुगतान ${date} तक करने का अनुरोध करता है: ${link}`,
          }
        : {
            subject: `${institute}: pay ${amount} for ${label}`,
            text: `${name}, ${institute} asks you to pay ${amount} for ${label}, due ${date}: ${link}`,
          },
  }),
  "fee-debit-failed": template<{
    name: string;
    institute: string;
    method: string;
    amount: string;
    label: string;
    date: string;
    reason: string;
    link: string;
  }>({
    when: "A standing instruction's debit for a fee due (UPI Autopay or a bank e-mandate) could not be presented or failed: to the student and each linked parent, once per debit",
    channels: ["whatsapp", "sms", "email"],
    promotional: false,
    order: ["name", "institute", "method", "amount", "label", "date", "reason", "link"],
    render: ({ name, institute, method, amount, label, date, reason, link }, locale) =>
      locale === "hi"
        ? {
            subject: `${institute}: ${label} के ${amount} का ${method} भुगतान नहीं हुआ`,
            text: `${name}, ${institute} में ${label} के ${amount} (अंतिम तारीख ${date}) का ${method} से भुगतान नहीं हो सका: ${reason} कृपया स्वयं भुगतान करें: ${link}`,
          }
        : {
            subject: `${institute}: ${method} debit of ${amount} did not go through`,
            text: `${name}, the ${method} debit of ${amount} for ${label} (due ${date}) at ${institute} did not go through: ${reason} Please pay it yourself: ${link}`,
          },
  }),
  "plan-expiry": template<{ name: string; institute: string; when: string; date: string; link: string }>({
    when: "An institute's plan runs out: to its owner 7 days before, 1 day before and on the day",
    channels: ["email"],
    promotional: false,
    order: ["name", "institute", "when", "date", "link"],
    render: ({ name, institute, when, date, link }, locale) =>
      locale === "hi"
        ? {
            subject: `${institute} का प्लान ${date} को समाप्त हो रहा है`,
            text: `नमस्ते ${name}, ${institute} का प्लान ${date} को समाप्त होता है (${when})। उसके बाद वेबसाइट बंद हो जाएगी। अभी नवीनीकरण करें:\n${link}`,
          }
        : {
            subject: when === "today" ? `${institute}'s plan ends today` : `${institute}'s plan ends ${when}`,
            text: `Hello ${name}, the plan of ${institute} ends on ${date} (${when}). After that its website goes offline until the plan is renewed. Renew it here:\n${link}`,
          },
  }),
  "trial-ending": template<{ name: string; institute: string; when: string; date: string; link: string }>({
    when: "An institute's free trial runs out: to its owner 7 days before, 1 day before and on the day",
    channels: ["email"],
    promotional: false,
    order: ["name", "institute", "when", "date", "link"],
    render: ({ name, institute, when, date, link }, locale) =>
      locale === "hi"
        ? {
            subject: `${institute} का निःशुल्क ट्रायल ${date} को समाप्त हो रहा है`,
            text: `नमस्ते ${name}, ${institute} का निःशुल्क ट्रायल ${date} को समाप्त होता है (${when})। वेबसाइट चालू रखने के लिए प्लान खरीदें; आपकी सारी तैयारी बनी रहेगी:\n${link}`,
          }
        : {
            subject:
              when === "today" ? `${institute}'s free trial ends today` : `${institute}'s free trial ends ${when}`,
            text: `Hello ${name}, the free trial of ${institute} ends on ${date} (${when}). Buy a plan to keep its website online; everything you have set up is kept:\n${link}`,
          },
  }),
  "payment-receipt": template<{
    name: string;
    item: string;
    amount: string;
    date: string;
    paymentId: string;
    link: string;
    invoice: string;
  }>({
    when: "A payment is completed (a plan or its renewal, content, a test or series): to the buyer, with the GST invoice attached",
    channels: ["email"],
    // What was bought, as the invoice describes it (a plan names its institute's domain).
    kept: ["item"],
    promotional: false,
    order: ["name", "item", "amount", "date", "paymentId", "link", "invoice"],
    render: (v, locale, brand) =>
      locale === "hi"
        ? {
            subject: `${brand.name}: भुगतान की रसीद (${v.amount})`,
            text: `नमस्ते ${v.name}, आपका भुगतान मिल गया है।\n\n${v.item}\nराशि: ${v.amount}\nतारीख: ${v.date}\nभुगतान आईडी: ${v.paymentId}\n\n${v.invoice} संलग्न है।\n\nदेखें: ${v.link}`,
          }
        : {
            subject: `Your ${brand.name} receipt for ${v.amount}`,
            text: `Hello ${v.name}, thank you: your payment has been received.\n\n${v.item}\nAmount paid: ${v.amount}\nDate: ${v.date}\nPayment ID: ${v.paymentId}\n\n${v.invoice} is attached; your billing history keeps it too.\n\nSee it here: ${v.link}`,
          },
  }),
  "refund-processed": template<{ name: string; item: string; amount: string; creditNote: string; link: string }>({
    when: "A payment is refunded (a plan under the 30-day money-back guarantee, or a student's payment by its institute): to the buyer, with the credit note attached",
    channels: ["email"],
    kept: ["item"],
    promotional: false,
    order: ["name", "item", "amount", "creditNote", "link"],
    render: (v, locale, brand) =>
      locale === "hi"
        ? {
            subject: `${brand.name}: ${v.amount} की वापसी`,
            text: `नमस्ते ${v.name}, ${v.item} के ${v.amount} वापस भेज दिए गए हैं; बैंक में आने में 5-7 कार्यदिवस लग सकते हैं।\n\n${v.creditNote} संलग्न है।\n\nदेखें: ${v.link}`,
          }
        : {
            subject: `Your ${brand.name} refund of ${v.amount}`,
            text: `Hello ${v.name}, ${v.amount} for ${v.item} has been refunded. It can take 5-7 working days to reach your account.\n\n${v.creditNote} is attached; your billing history keeps it too.\n\nSee it here: ${v.link}`,
          },
  }),
} as const;

export type TemplateId = keyof typeof TEMPLATES;
export type ValuesOf<T extends TemplateId> = Parameters<(typeof TEMPLATES)[T]["render"]>[0];

/** The subject and text of a template for one locale and brand. */
export function renderTemplate<T extends TemplateId>(
  id: T,
  values: ValuesOf<T>,
  locale: Locale,
  brand: Brand,
): Rendered {
  const def = TEMPLATES[id] as unknown as TemplateDef<ValuesOf<T>>;
  return def.render(values, locale, brand);
}

/** The values in the numbered order of the provider's approved template. */
export function orderedValues<T extends TemplateId>(id: T, values: ValuesOf<T>): string[] {
  const def = TEMPLATES[id] as unknown as TemplateDef<ValuesOf<T>>;
  return def.order.map((key) => String(values[key]));
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/**
 * An e-mail's HTML from its text: the brand's name in its colour above, the product's own link
 * (`link`, the template's value of that name) made clickable, and the opt-out link below when there
 * is one. Text is escaped; nothing else in it becomes a link, whatever it looks like.
 */
export function emailHtml(
  rendered: Rendered,
  brand: Brand,
  unsubscribe?: string,
  link?: string,
  locale: Locale = "en",
): string {
  const color = /^#[0-9a-f]{3,8}$/i.test(brand.color) ? brand.color : PLATFORM_BRAND.color;
  const anchor = link && /^https?:\/\/\S+$/.test(link) ? escapeHtml(link) : null;
  const body = escapeHtml(rendered.text)
    .split("\n\n")
    .map((p) => `<p style="margin:0 0 16px">${p.replace(/\n/g, "<br>")}</p>`)
    .join("");
  const linked = anchor ? body.split(anchor).join(`<a href="${anchor}" style="color:${color}">${anchor}</a>`) : body;
  const footer = unsubscribe
    ? `<p lang="en" style="margin:24px 0 0;font-size:12px;color:#6b7280"><a href="${escapeHtml(unsubscribe)}" style="color:#6b7280">Unsubscribe</a></p>`
    : "";
  // The language lets a mail client and a screen reader read Hindi as Hindi.
  return `<!doctype html><html lang="${locale}"><body style="margin:0;background:#f8fafc;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#0f172a"><div style="max-width:560px;margin:0 auto;padding:24px"><div style="font-weight:700;font-size:18px;color:${color};margin-bottom:16px">${escapeHtml(brand.name)}</div><div style="background:#fff;border-radius:12px;padding:24px;font-size:15px;line-height:1.6">${linked}</div>${footer}</div></body></html>`;
}
