import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { NotFound } from "~/components/not-found";

// The request log records the 404 with its path.
export function loader() {
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = () => [
  { title: "Page not found | Pathshala" },
  { name: "robots", content: "noindex" },
];

export default function NotFoundRoute() {
  return <NotFound />;
}
