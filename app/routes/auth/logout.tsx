import { Form, Link, redirect } from "react-router";
import { LogOut } from "lucide-react";
import type { Route } from "./+types/logout";
import { endWebSession, getViewer } from "~/lib/session.server";
import { signedOutDestination } from "~/lib/redirects";
import { CardPage } from "~/components/shell/card-page";
import { Button } from "~/components/ui/button";

export const meta: Route.MetaFunction = () => [{ title: "Logout | Pathshala" }, { name: "robots", content: "noindex" }];

/**
 * POST /logout ends the browser session; each role returns to its own sign-in. The post is a
 * same-origin form (the CSRF check refuses it from another site), so a link or an image elsewhere
 * cannot sign anyone out.
 */
export async function action({ context }: Route.ActionArgs) {
  const role = getViewer(context)?.role;
  const cookie = await endWebSession(context);
  return redirect(signedOutDestination(role), { headers: { "Set-Cookie": cookie } });
}

/** GET /logout changes nothing: it asks, with a Logout button that posts the form above. */
export function loader({ context }: Route.LoaderArgs) {
  const viewer = getViewer(context);
  return { viewer: viewer ? { name: viewer.name, email: viewer.email, role: viewer.role } : null };
}

export default function Logout({ loaderData }: Route.ComponentProps) {
  const { viewer } = loaderData;
  return (
    <CardPage>
      {viewer ? (
        <div className="grid gap-4 text-center">
          <h1 className="text-2xl font-semibold">Log out?</h1>
          <p className="text-muted-foreground">
            You are signed in as {viewer.name} ({viewer.email}).
          </p>
          <Form method="post" action="/logout">
            <Button type="submit" size="lg" className="w-full">
              <LogOut className="size-4" aria-hidden /> Logout
            </Button>
          </Form>
          <Link to="/" className="text-sm text-muted-foreground hover:text-foreground">
            Stay signed in
          </Link>
        </div>
      ) : (
        <div className="grid gap-4 text-center">
          <h1 className="text-2xl font-semibold">You are signed out</h1>
          <Link to="/get-started" className="text-primary hover:underline">
            Sign in again
          </Link>
        </div>
      )}
    </CardPage>
  );
}
