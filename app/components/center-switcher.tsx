import { Form, useLocation, useNavigate } from "react-router";
import { Building2 } from "lucide-react";
import { Select } from "~/components/ui/input";
import { Button } from "~/components/ui/button";

/** Picks which of the owner's institutes the business area shows (GET ?center=…; works without JS). */
export function CenterSwitcher({
  centers,
  currentId,
}: {
  centers: { id: string; name: string }[];
  currentId: string | null;
}) {
  const navigate = useNavigate();
  const location = useLocation();
  return (
    <Form method="get" action={location.pathname} className="flex items-center gap-2">
      <Building2 className="size-4 text-muted-foreground" aria-hidden />
      <Select
        name="center"
        aria-label="Institute"
        defaultValue={currentId ?? undefined}
        className="h-9 max-w-56"
        onChange={(event) => navigate(`${location.pathname}?center=${event.currentTarget.value}`)}
      >
        {centers.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </Select>
      <noscript>
        <Button type="submit" size="sm" variant="outline">
          Go
        </Button>
      </noscript>
    </Form>
  );
}
