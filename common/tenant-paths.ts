/**
 * The pages an institute's own domain serves (its site, sign-in, student and parent areas, its
 * business area). Everything else is the platform's and answers 404 there (DESIGN §3).
 */
const TENANT_EXACT = new Set([
  "/",
  "/auth",
  "/get-started",
  "/logout",
  "/profile",
  "/catalog",
  "/my-courses",
  "/robots.txt",
  "/sitemap.xml",
  // Account recovery and the account card's sections: a student of the institute stays on its domain.
  "/forgot-password",
  "/reset-password",
  "/login-code",
  "/confirm-email",
  "/account/password",
  "/account/phone",
  "/account/email",
  "/account/billing",
  "/account/language",
  "/account/parents",
  // Attendance (issue 41 §3): where a student's phone lands from the classroom's QR code.
  "/attend",
]);
// `/sessions/…`: a class's register, QR screen and online join page, on the institute's domain too.
// `/family/…` and `/parent`: a parent's invitation and area, on their child's institute's domain (decision 0047).
const TENANT_PREFIXES = ["/student", "/parent", "/business", "/sessions", "/family"];

export function isTenantPath(pathname: string): boolean {
  const path = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
  if (TENANT_EXACT.has(path)) return true;
  return TENANT_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
