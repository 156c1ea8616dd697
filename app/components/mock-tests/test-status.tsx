import { Badge } from "~/components/ui/badge";

export type TestStatus = "draft" | "published" | "closed";
const TONES = { draft: "muted", published: "success", closed: "warning" } as const;
const LABELS: Record<TestStatus, string> = { draft: "Draft", published: "Published", closed: "Closed" };

export function TestStatusBadge({ status }: { status: TestStatus }) {
  return <Badge tone={TONES[status]}>{LABELS[status]}</Badge>;
}
