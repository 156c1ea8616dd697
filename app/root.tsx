import { useEffect } from "react";
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteLoaderData,
} from "react-router";
import { Toaster } from "sonner";
import { toast as showToast } from "~/lib/toast";
import type { Route } from "./+types/root";
import { tenantRouteGuard } from "~/lib/tenant-guard.server";
import { loadRootData } from "~/lib/root-data.server";
import { NotFound } from "~/components/not-found";
import { THEME_SCRIPT } from "~/components/theme";
import { useScriptNonce } from "~/lib/script-nonce";
import "./app.css";

export const middleware: Route.MiddlewareFunction[] = [tenantRouteGuard];

export function loader({ request, context }: Route.LoaderArgs) {
  const { data: rootData, clearToastCookie } = loadRootData(request, context);
  return data(rootData, clearToastCookie ? { headers: { "Set-Cookie": clearToastCookie } } : undefined);
}

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

/** Root data from any component (undefined only on the error page before the loader ran). */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>("root");
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const theme = root?.theme ?? "system";
  const brand = root?.site.kind === "tenant" ? root.site.brandColor : null;
  const nonce = useScriptNonce();
  return (
    <html lang="en" className={theme === "dark" ? "dark" : undefined} data-theme={theme} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* Applies the OS theme before first paint when the choice is "system": no flash. */}
        <script nonce={nonce} suppressHydrationWarning dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
        {brand && <style>{`:root{--primary:${brand};--ring:${brand}}`}</style>}
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen">
        {children}
        {/* Both take the response's nonce from <ServerRouter nonce> (app/entry.server.tsx). */}
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { toast } = loaderData;
  // Says the page's scripts have taken over (the pages' own effects, which run first, included):
  // what tests wait for before they move a page's clock or read what only scripts show.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "";
  }, []);
  useEffect(() => {
    if (!toast) return;
    const show = toast.kind === "error" ? showToast.error : toast.kind === "success" ? showToast.success : showToast;
    show(toast.title, { description: toast.description, duration: toast.kind === "error" ? 4000 : 5000 });
  }, [toast]);
  return (
    <>
      <Outlet />
      {/* Below the headers (3.5–4 rem tall), so a toast never covers the bell, Logout or the switcher. */}
      <Toaster
        position="top-right"
        offset={{ top: "4.75rem", right: "1.5rem" }}
        mobileOffset={{ top: "4.25rem", left: "1rem", right: "1rem" }}
        richColors
        closeButton
        theme={loaderData.theme}
      />
    </>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFound />;
  const forbidden = isRouteErrorResponse(error) && error.status === 403;
  const message = forbidden
    ? "You do not have access to this page"
    : isRouteErrorResponse(error)
      ? `${error.status} ${error.statusText}`
      : "Something went wrong";
  const detail = forbidden && typeof error.data === "string" ? error.data : "Please try again in a moment.";
  return (
    <main className="mx-auto grid min-h-screen max-w-xl place-items-center p-8 text-center">
      <div>
        <h1 className="text-2xl font-semibold">{message}</h1>
        <p className="mt-2 text-muted-foreground">{detail}</p>
        <a href="/" className="mt-6 inline-block text-primary underline underline-offset-4">
          Go back home
        </a>
      </div>
    </main>
  );
}
