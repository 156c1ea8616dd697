import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createExamClock, dueAlert, formatTimeLeft, passedAlerts, serverTimeLeft } from "./clock";

const SERVER_NOW = "2026-11-26T09:00:00.000Z";
const at = (minutes: number, seconds = 0) =>
  new Date(Date.parse(SERVER_NOW) + minutes * 60_000 + seconds * 1000).toISOString();

beforeEach(() => {
  vi.useFakeTimers();
  // The browser's own idea of the date is a day off: the clock must not care.
  vi.setSystemTime(new Date("2026-11-25T03:17:00Z"));
});
afterEach(() => vi.useRealTimers());

function clock(deadline: string, alertMinutes = [30, 15, 5]) {
  const ticks: number[] = [];
  const alerts: number[] = [];
  const onExpire = vi.fn();
  const c = createExamClock({
    deadline,
    serverNow: SERVER_NOW,
    alertMinutes,
    now: () => Date.now(),
    onTick: (ms) => ticks.push(ms),
    onAlert: (m) => alerts.push(m),
    onExpire,
  });
  return { c, ticks, alerts, onExpire };
}

describe("the test's clock", () => {
  it("formats the time left as HH:MM:SS, rounding up", () => {
    expect(formatTimeLeft(3 * 3600_000)).toBe("03:00:00");
    expect(formatTimeLeft(59 * 60_000 + 59_001)).toBe("01:00:00");
    expect(formatTimeLeft(61_500)).toBe("00:01:02");
    expect(formatTimeLeft(400)).toBe("00:00:01");
    expect(formatTimeLeft(0)).toBe("00:00:00");
    expect(formatTimeLeft(-5000)).toBe("00:00:00");
  });

  it("counts down from the server's deadline minus the server's now", () => {
    expect(serverTimeLeft(at(180), SERVER_NOW)).toBe(180 * 60_000);
    expect(serverTimeLeft(at(-1), SERVER_NOW)).toBe(0);
    const { c, ticks } = clock(at(90));
    c.start();
    expect(formatTimeLeft(ticks[0])).toBe("01:30:00");
    vi.advanceTimersByTime(61_010);
    expect(formatTimeLeft(c.msLeft())).toBe("01:28:59");
    expect(formatTimeLeft(ticks.at(-1)!)).toBe("01:28:59");
  });

  it("fires each alert once as its mark passes", () => {
    const { c, alerts } = clock(at(31));
    c.start();
    vi.advanceTimersByTime(59_000);
    expect(alerts).toEqual([]);
    vi.advanceTimersByTime(1_010);
    expect(alerts).toEqual([30]);
    vi.advanceTimersByTime(15 * 60_000);
    expect(alerts).toEqual([30, 15]);
    vi.advanceTimersByTime(10 * 60_000);
    expect(alerts).toEqual([30, 15, 5]);
    vi.advanceTimersByTime(4 * 60_000);
    expect(alerts).toEqual([30, 15, 5]);
  });

  it("does not warn on resume about marks already behind, and only the most urgent of several", () => {
    expect(passedAlerts(10 * 60_000, [30, 15, 5])).toEqual(new Set([30, 15]));
    const fired = new Set([30]);
    expect(dueAlert(4 * 60_000, [30, 15, 5], fired)).toBe(5);
    expect(fired).toEqual(new Set([30, 15, 5]));
    expect(dueAlert(3 * 60_000, [30, 15, 5], fired)).toBeNull();

    const { c, alerts } = clock(at(10));
    c.start();
    vi.advanceTimersByTime(6 * 60_000);
    expect(alerts).toEqual([5]);
  });

  it("calls onExpire once at zero", () => {
    const { c, onExpire, ticks } = clock(at(0, 3));
    c.start();
    vi.advanceTimersByTime(2_900);
    expect(onExpire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(onExpire).toHaveBeenCalledOnce();
    expect(ticks.at(-1)).toBe(0);
    vi.advanceTimersByTime(10_000);
    expect(onExpire).toHaveBeenCalledOnce();
  });

  it("expires at once for a view whose deadline has passed", () => {
    const { c, onExpire } = clock(at(-2));
    c.start();
    expect(onExpire).toHaveBeenCalledOnce();
  });

  it("follows a deadline moved by extra time, alerts ahead firing again", () => {
    const { c, alerts, onExpire } = clock(at(6));
    c.start();
    vi.advanceTimersByTime(2 * 60_000);
    expect(alerts).toEqual([5]);
    c.reset(at(20, 0), at(0, 0));
    expect(formatTimeLeft(c.msLeft())).toBe("00:20:00");
    vi.advanceTimersByTime(16 * 60_000);
    expect(alerts).toEqual([5, 15, 5]);
    vi.advanceTimersByTime(4 * 60_000 - 100);
    expect(onExpire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(110);
    expect(onExpire).toHaveBeenCalledOnce();
  });

  it("keeps the server's clock (what saves are stamped with) on the monotonic clock, whatever the browser's date", () => {
    const { c } = clock(at(30));
    expect(new Date(c.serverNow()).toISOString()).toBe(SERVER_NOW);
    vi.advanceTimersByTime(90_000);
    expect(new Date(c.serverNow()).toISOString()).toBe(at(1, 30));
    c.reset(at(33), at(2));
    expect(new Date(c.serverNow()).toISOString()).toBe(at(2));
    expect(c.deadline()).toBe(at(33));
  });

  it("stops ticking when stopped", () => {
    const { c, ticks, onExpire } = clock(at(0, 5));
    c.start();
    c.stop();
    vi.advanceTimersByTime(10_000);
    expect(ticks.length).toBe(1);
    expect(onExpire).not.toHaveBeenCalled();
  });
});
