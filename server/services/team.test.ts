import { describe, expect, it } from "vitest";
import { invitationLink, platformOrigin } from "./team.ts";
import type { TenantCenter } from "./tenants.ts";

const center = { id: "c" } as TenantCenter;

describe("invitation links", () => {
  it("point at the platform as the visitor reaches it", () => {
    expect(
      platformOrigin(
        { url: "http://localhost:5173/business/team", secure: false, site: { kind: "platform", host: "localhost" } },
        ["localhost"],
      ),
    ).toBe("http://localhost:5173");
    expect(
      platformOrigin(
        { url: "http://10.0.0.5/api/team/invitations", secure: true, site: { kind: "platform", host: "pathshala.in" } },
        ["pathshala.in"],
      ),
    ).toBe("https://pathshala.in");
  });

  it("point at the platform's first host when the owner works on their institute's domain", () => {
    expect(
      platformOrigin(
        {
          url: "http://demo-t1.localhost:3000/business/team",
          secure: false,
          site: { kind: "tenant", host: "demo-t1.localhost", center },
        },
        ["localhost", "127.0.0.1"],
      ),
    ).toBe("http://localhost:3000");
    expect(
      platformOrigin(
        {
          url: "https://sunrise.edu.in/business/team",
          secure: true,
          site: { kind: "tenant", host: "sunrise.edu.in", center },
        },
        ["pathshala.in"],
      ),
    ).toBe("https://pathshala.in");
  });

  it("carry the token in the path of the invitation page", () => {
    expect(invitationLink("https://pathshala.in", "abc")).toBe("https://pathshala.in/invite/abc");
  });
});
