import { describe, expect, it } from "vitest";
import { onlyChoiceCookies, visitorChoices } from "./visitor-choices.ts";

describe("visitorChoices", () => {
  it("reads the theme, the sidebar and the cookie consent", () => {
    expect(visitorChoices(undefined)).toEqual({ theme: "system", sidebarCollapsed: false, cookiesAccepted: false });
    expect(visitorChoices("pathshala_theme=dark; sidebar_state=false; pathshala_cookie_consent=accepted")).toEqual({
      theme: "dark",
      sidebarCollapsed: true,
      cookiesAccepted: true,
    });
    expect(visitorChoices("pathshala_theme=light; sidebar_state=true").theme).toBe("light");
  });

  it("counts anything but the known values as no choice", () => {
    expect(visitorChoices("pathshala_theme=neon; sidebar_state=0; pathshala_cookie_consent=rejected")).toEqual({
      theme: "system",
      sidebarCollapsed: false,
      cookiesAccepted: false,
    });
    expect(visitorChoices("pathshala_theme=%ZZ").theme).toBe("system");
  });
});

describe("onlyChoiceCookies", () => {
  it("is true without cookies, or with the choices only", () => {
    expect(onlyChoiceCookies(undefined)).toBe(true);
    expect(onlyChoiceCookies("")).toBe(true);
    expect(onlyChoiceCookies("pathshala_theme=dark; sidebar_state=false;pathshala_cookie_consent=accepted")).toBe(true);
  });

  it("is false with a session, a message waiting, or any cookie it does not know", () => {
    expect(onlyChoiceCookies("pathshala_theme=dark; pathshala_session=abc")).toBe(false);
    expect(onlyChoiceCookies("__Host-pathshala_session=abc")).toBe(false);
    expect(onlyChoiceCookies("pathshala_toast=%7B%7D")).toBe(false);
    expect(onlyChoiceCookies("tracking=1")).toBe(false);
    expect(onlyChoiceCookies("pathshala_themes=dark")).toBe(false);
    expect(onlyChoiceCookies("novalue")).toBe(false);
  });
});
