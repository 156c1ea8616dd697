/**
 * The platform's own name, and the rule that no institute's name may read as it (issue 37 §1,
 * decision 0028): a message branded "Pathshala Support" or "Pathshala Security Team" would look
 * like the platform's own. A name reads as the platform's when, looked at as a reader sees it
 * (case, accents, spacing, punctuation and look-alike letters ignored), it is the platform's
 * name with nothing but words any organisation uses for itself ("Support", "Team", "Official",
 * ".in"…). "Gyan Pathshala" and "Pathshala Academy" name an institute of their own and are
 * fine: "pathshala" is also the Hindi word for a school.
 */

export const PLATFORM_NAME = "Pathshala";

/** Refusal of an institute's name that reads as the platform's. */
export const NAME_READS_AS_PLATFORM = `Institute/Brand name must be your institute's own, not one that reads as ${PLATFORM_NAME}'s`;

/** The platform's name in the scripts its messages use. */
const PLATFORM_NAMES = [PLATFORM_NAME, "पाठशाला"];

/** Words that say who is speaking rather than who it is. */
const GENERIC_WORDS = [
  ...["support", "supports", "security", "secure", "team", "teams", "help", "helpdesk", "helpline", "desk"],
  ...["service", "services", "customer", "customers", "care", "official", "officials", "admin", "admins"],
  ...["administrator", "administration", "account", "accounts", "billing", "payment", "payments"],
  ...["notification", "notifications", "notice", "notices", "alert", "alerts", "message", "messages"],
  ...["noreply", "no", "reply", "donotreply", "do", "not", "mail", "email", "emails", "info", "information"],
  ...["verification", "verify", "verified", "trust", "safety", "fraud", "abuse", "compliance", "legal"],
  ...["staff", "hq", "headquarters", "app", "apps", "platform", "online", "india", "www", "in", "com", "co"],
  ...["org", "net", "the", "of", "by", "from", "and", "for", "at", "inc", "ltd", "limited", "pvt"],
  ...["private", "llp", "corp", "corporation", "group", "system", "systems", "bot", "ops", "operations"],
  ...["login", "signin", "auth", "password", "passwords", "reset", "update", "updates", "news", "hello"],
  ...["hi", "contact", "partner", "partners", "head", "office", "desk", "central"],
  ...["टीम", "सहायता", "सुरक्षा", "आधिकारिक", "सेवा"],
];

/** Letters that look like Latin ones (Cyrillic, Greek) and the digits and signs used for them. */
const LOOK_ALIKES: Record<string, string> = {
  ...{ а: "a", в: "b", е: "e", к: "k", м: "m", н: "h", о: "o", р: "p", с: "c", т: "t", у: "y", х: "x" },
  ...{ і: "i", ӏ: "l", һ: "h", ѕ: "s", ԁ: "d", ԛ: "q", ԝ: "w", ј: "j", ѵ: "v" },
  ...{ α: "a", β: "b", ε: "e", η: "n", ι: "i", κ: "k", ν: "v", ο: "o", ρ: "p", τ: "t", υ: "u", χ: "x" },
  ...{ "0": "o", "1": "l", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", $: "s", "@": "a", "|": "l", "!": "l" },
};

/**
 * A name as a reader tells it apart: compatibility forms folded (ｐａｔｈ → path), marks and
 * case dropped, look-alikes replaced, i and l taken as one letter (I, l, 1 and | look alike),
 * and only letters kept.
 */
export function nameSkeleton(name: string): string {
  return [...name.normalize("NFKC").normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()]
    .map((c) => LOOK_ALIKES[c] ?? c)
    .join("")
    .replace(/i/g, "l")
    .replace(/[^a-z\p{Script=Devanagari}]/gu, "");
}

/** The platform's names, each letter but the last allowed to repeat ("Paathshaala"). */
const PLATFORM_PATTERNS = PLATFORM_NAMES.map((name) => {
  const letters = [...nameSkeleton(name)];
  return new RegExp(letters.map((c, i) => (i < letters.length - 1 ? `${c}+` : c)).join(""), "gu");
});
const GENERIC_SKELETONS = [...new Set(GENERIC_WORDS.map(nameSkeleton))];

/** Whether `rest` is made of generic words only (each position tried once: no backtracking blow-up). */
function onlyGenericWords(rest: string): boolean {
  const reachable = new Array<boolean>(rest.length + 1).fill(false);
  reachable[0] = true;
  for (let i = 0; i < rest.length; i++) {
    if (!reachable[i]) continue;
    for (const word of GENERIC_SKELETONS) if (rest.startsWith(word, i)) reachable[i + word.length] = true;
  }
  return reachable[rest.length];
}

/** Whether an institute's name reads as the platform's own (see above). */
export function readsAsPlatformName(name: string): boolean {
  const skeleton = nameSkeleton(name);
  if (!PLATFORM_PATTERNS.some((platform) => skeleton.search(platform) >= 0)) return false;
  return onlyGenericWords(PLATFORM_PATTERNS.reduce((rest, platform) => rest.replace(platform, ""), skeleton));
}

/**
 * The spec's sign-in toast, "Welcome to the product Dashboard", with the product named: the
 * institute's name on its own site, the platform's elsewhere (issue 38 §6).
 */
export function dashboardWelcome(institute: string | null): string {
  return `Welcome to the ${institute ?? PLATFORM_NAME} Dashboard`;
}
