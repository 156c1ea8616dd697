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
