import { describe, expect, it } from "vitest";
import { twinOf, txtName, txtValue } from "./domains.ts";

describe("a domain's names", () => {
  it("twin: www. added, or taken off a www. domain", () => {
    expect(twinOf("sunrise.in")).toBe("www.sunrise.in");
    expect(twinOf("www.sunrise.in")).toBe("sunrise.in");
    expect(twinOf("jee.sunrise.in")).toBe("www.jee.sunrise.in");
  });

  it("the TXT record that proves one", () => {
    expect(txtName("sunrise.in")).toBe("_pathshala.sunrise.in");
    expect(txtValue("abc")).toBe("pathshala-verify=abc");
  });
});
