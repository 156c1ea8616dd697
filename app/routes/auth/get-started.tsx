import { Link, redirect } from "react-router";
import { ArrowLeft, Building2, GraduationCap, PenTool } from "lucide-react";
import type { Route } from "./+types/get-started";
import { getRequestContext } from "~/lib/context.server";
import { Logo } from "~/components/shell/logo";

export const meta: Route.MetaFunction = () => [
  { title: "Get started | Pathshala" },
  { name: "description", content: "Join Pathshala as a student, a creator or an institute." },
];

export function loader({ context }: Route.LoaderArgs) {
  // An institute's own domain signs up students only.
  if (getRequestContext(context).site.kind === "tenant") throw redirect("/auth?role=student");
  return null;
}

const ROLES = [
  {
    role: "student",
    title: "Student",
    text: "Join live classes, watch courses and download study materials for JEE, NEET and Boards.",
    Icon: GraduationCap,
  },
  {
    role: "creator",
    title: "Creator",
    text: "Publish PDFs, video courses and live classes, and earn from every enrolment.",
    Icon: PenTool,
  },
  {
    role: "business",
    title: "Business",
    text: "Launch your institute's branded website on your own domain and run admissions online.",
    Icon: Building2,
  },
] as const;

export default function GetStarted() {
  return (
    <main className="min-h-screen bg-gradient-to-b from-primary/5 to-background px-4 py-10">
      <div className="mx-auto max-w-5xl">
        <div className="flex items-center justify-between">
          <Link to="/" className="inline-flex items-center gap-2 text-sm text-muted-foreground hover:text-foreground">
            <ArrowLeft className="size-4" aria-hidden /> Back to home
          </Link>
          <Logo />
        </div>
        <h1 className="mt-12 text-center text-3xl font-bold tracking-tight md:text-4xl">How will you use Pathshala?</h1>
        <p className="mt-3 text-center text-muted-foreground">Choose your role to create an account or sign in.</p>
        <ul className="mt-10 grid gap-6 md:grid-cols-3">
          {ROLES.map(({ role, title, text, Icon }) => (
            <li key={role}>
              <Link
                to={`/auth?role=${role}`}
                className="group flex h-full flex-col rounded-2xl border bg-card p-6 shadow-sm transition hover:-translate-y-0.5 hover:border-primary/50 hover:shadow-md"
              >
                <span className="grid size-12 place-items-center rounded-xl bg-primary/10 text-primary">
                  <Icon className="size-6" aria-hidden />
                </span>
                <h2 className="mt-4 text-xl font-semibold">{title}</h2>
                <p className="mt-2 flex-1 text-sm text-muted-foreground">{text}</p>
                <span className="mt-6 inline-flex items-center justify-center rounded-md bg-primary px-4 py-2 text-sm font-medium text-primary-foreground group-hover:bg-primary/90">
                  Continue as {title}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </main>
  );
}
