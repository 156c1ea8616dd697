/** Dates and times as messages write them: the Indian way, in India time ("26 November 2026", "6:30 pm"). */

export const messageDate = (at: Date) =>
  at.toLocaleDateString("en-IN", { day: "numeric", month: "long", year: "numeric", timeZone: "Asia/Kolkata" });

export const messageTime = (at: Date) =>
  at.toLocaleTimeString("en-IN", { hour: "numeric", minute: "2-digit", hour12: true, timeZone: "Asia/Kolkata" });
