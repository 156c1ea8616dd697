import { describe, expect, it } from "vitest";
import { failureDescription, SEMINAR_TEXT } from "./seminar-messages";

describe("seminar failure toast text (spec §8)", () => {
  it("names a duplicate registration", () => {
    expect(failureDescription(new Error("This email is already registered for the seminar on this date."))).toBe(
      "You have already registered for this seminar. Please check your WhatsApp for confirmation.",
    );
    expect(failureDescription(new Error("duplicate key"))).toBe(SEMINAR_TEXT.duplicate);
  });
  it("names a network failure", () => {
    expect(failureDescription(new TypeError("Failed to fetch"))).toBe(
      "Network error. Please check your internet connection and try again.",
    );
    expect(failureDescription(new Error("NetworkError when attempting to fetch resource."))).toBe(SEMINAR_TEXT.network);
  });
  it("shows the server's message, else the default", () => {
    expect(failureDescription(new Error("Too many attempts. Please try again in 5 minutes."))).toBe(
      "Too many attempts. Please try again in 5 minutes.",
    );
    expect(failureDescription(new Error(""))).toBe("Failed to submit registration. Please try again.");
    expect(failureDescription("boom")).toBe("Failed to submit registration. Please try again.");
  });
});
