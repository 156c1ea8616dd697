import { Link } from "react-router";

export function NotFound() {
  return (
    <main className="grid min-h-screen place-items-center bg-muted/40 p-8 text-center">
      <div>
        <p className="text-6xl font-bold text-primary">404</p>
        <h1 className="mt-4 text-2xl font-semibold">Oops! Page not found</h1>
        <p className="mt-2 text-muted-foreground">The page you are looking for does not exist or has moved.</p>
        <Link
          to="/"
          reloadDocument
          className="mt-6 inline-flex items-center rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground hover:opacity-90"
        >
          Return to Home
        </Link>
      </div>
    </main>
  );
}
