import { ClipboardList, Clock, ListChecks } from "lucide-react";
import type { Route } from "./+types/mock-tests";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { PageHeader } from "~/components/ui/page-header";

export const meta: Route.MetaFunction = () => [{ title: "Mock Tests | Student" }];

/** Samples of what is coming (spec §2: three, disabled, 60 minutes and 50 questions each). */
const SAMPLES = ["JEE Main Full Mock Test", "NEET Full Mock Test", "Board Exam Practice Test"];

export default function MockTests() {
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Mock Tests" description="Timed practice tests with instant results are coming soon." />
      <div className="mb-6 flex items-center gap-3 rounded-xl border border-dashed bg-card p-4 text-sm">
        <ClipboardList className="size-5 shrink-0 text-primary" aria-hidden />
        <p>
          Mock tests are <strong>coming soon</strong>. Here is a preview of what to expect.
        </p>
      </div>
      <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {SAMPLES.map((title) => (
          <li key={title}>
            <Card aria-disabled className="h-full opacity-80">
              <CardContent className="grid gap-3 p-5">
                <div className="flex items-start justify-between gap-2">
                  <h2 className="font-semibold">{title}</h2>
                  <Badge tone="muted" className="shrink-0 whitespace-nowrap">
                    Coming soon
                  </Badge>
                </div>
                <dl className="grid gap-2 rounded-lg bg-muted/50 p-3 text-sm">
                  <div className="flex items-center justify-between gap-2">
                    <dt className="flex items-center gap-1.5 text-muted-foreground">
                      <Clock className="size-4" aria-hidden /> Duration
                    </dt>
                    <dd className="font-medium">60 min</dd>
                  </div>
                  <div className="flex items-center justify-between gap-2">
                    <dt className="flex items-center gap-1.5 text-muted-foreground">
                      <ListChecks className="size-4" aria-hidden /> Questions
                    </dt>
                    <dd className="font-medium">50</dd>
                  </div>
                </dl>
                <Button disabled variant="outline">
                  Start Test
                </Button>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    </div>
  );
}
