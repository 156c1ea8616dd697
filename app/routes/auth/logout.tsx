import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { endWebSession, getViewer } from "~/lib/session.server";
import { signedOutDestination } from "~/lib/redirects";

/** POST /logout ends the browser session; each role returns to its own sign-in. */
export async function action({ context }: Route.ActionArgs) {
  const role = getViewer(context)?.role;
  const cookie = await endWebSession(context);
  return redirect(signedOutDestination(role), { headers: { "Set-Cookie": cookie } });
}

export function loader() {
  return redirect("/");
}
