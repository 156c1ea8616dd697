import { describe, expect, it } from "vitest";
import * as v from "valibot";
import { ContentFields, ContentUpdate, LIVE_STARTS_INVALID, classTimeInput, parseClassTime } from "./content";

describe("class times", () => {
  it("reads a datetime-local value as India time, and ISO times with their zone", () => {
    expect(parseClassTime("2026-11-22T18:30")?.toISOString()).toBe("2026-11-22T13:00:00.000Z");
    expect(parseClassTime("2026-11-22 06:05:09")?.toISOString()).toBe("2026-11-22T00:35:09.000Z");
    expect(parseClassTime("2026-11-22T13:00:00.000Z")?.toISOString()).toBe("2026-11-22T13:00:00.000Z");
    expect(parseClassTime("2026-11-22T18:30:00+05:30")?.toISOString()).toBe("2026-11-22T13:00:00.000Z");
  });

  it("refuses what is not a real time", () => {
    for (const bad of ["tomorrow", "2026-02-31T10:00", "2026-11-22T24:00", "2026-11-22", "22/11/2026 18:30"])
      expect(parseClassTime(bad)).toBeNull();
  });

  it("shows an instant back as the field's India-time value", () => {
    expect(classTimeInput("2026-11-22T13:00:00.000Z")).toBe("2026-11-22T18:30");
    expect(classTimeInput(null)).toBe("");
  });

  it("is optional on upload, kept as it is on an edit that leaves it out, cleared with an empty value", () => {
    const upload = v.parse(ContentFields, { title: "Live", type: "live", liveLink: "https://meet.example.com/x" });
    expect(upload.liveStartsAt).toBeNull();
    expect(v.parse(ContentUpdate, { title: "x" }).liveStartsAt).toBeUndefined();
    expect(v.parse(ContentUpdate, { liveStartsAt: "" }).liveStartsAt).toBeNull();
    expect(v.parse(ContentUpdate, { liveStartsAt: null }).liveStartsAt).toBeNull();
    const bad = v.safeParse(ContentUpdate, { liveStartsAt: "soon" });
    expect(bad.success).toBe(false);
    expect(bad.issues?.[0].message).toBe(LIVE_STARTS_INVALID);
  });
});
