/** Where a student's mock-test pages live (issue 29): a test's start page and screen, an attempt's result. */
export const testPath = (testId: string) => `/student/mock-tests/${testId}`;
export const resultPath = (attemptId: string) => `/student/mock-tests/attempts/${attemptId}/result`;
