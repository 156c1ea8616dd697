/**
 * The Tests area answers under /creator/tests (a creator's) and /business/tests (an institute
 * owner's) from the same route modules; links stay in the area the person is in.
 */
export function testsPaths(pathname: string) {
  const base = pathname.startsWith("/business") ? "/business/tests" : "/creator/tests";
  return {
    base,
    list: base,
    bank: `${base}/questions`,
    newQuestion: `${base}/questions/new`,
    question: (id: string) => `${base}/questions/${id}`,
    newTest: `${base}/new`,
    test: (id: string) => `${base}/${id}`,
    editTest: (id: string) => `${base}/${id}/edit`,
  };
}

export type TestsPaths = ReturnType<typeof testsPaths>;

/**
 * An /api address for the institute the page works on (its desk): the business area resolves its
 * own institute, which the API would not guess from the header alone, so its links name it.
 */
export function onDesk(href: string, desk: string | null | undefined): string {
  if (!desk) return href;
  return `${href}${href.includes("?") ? "&" : "?"}desk=${encodeURIComponent(desk)}`;
}
