/** The "why us" points every template shows (each in its own way). */
export const WHY_US = [
  {
    title: "Experienced faculty",
    text: "Teachers from IITs, NITs and top medical colleges, with years of results behind them.",
  },
  { title: "Small batches", text: "Every student is known by name; doubts are cleared in class, not left for later." },
  {
    title: "Tests that mirror the exam",
    text: "Weekly tests and full-length mocks in the real pattern, with rank and analysis.",
  },
  { title: "Parents in the loop", text: "Attendance, test scores and progress shared with parents every month." },
] as const;
