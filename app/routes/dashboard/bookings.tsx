import { Form, Link } from "react-router";
import { CalendarDays, Download } from "lucide-react";
import type { Route } from "./+types/bookings";
import { loadBookingsPage } from "~/lib/bookings.server";
import { PageHeader } from "~/components/ui/page-header";
import { buttonClasses, Button } from "~/components/ui/button";
import { Input, Label } from "~/components/ui/input";
import { EmptyState } from "~/components/ui/empty-state";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { formatTime } from "#common/time.ts";

export const meta: Route.MetaFunction = () => [
  { title: "Seminar Bookings | Pathshala" },
  { name: "robots", content: "noindex" },
];

// Only admins reach this page: the dashboard layout's guard sends everyone else to the overview.
export function loader({ request, context }: Route.LoaderArgs) {
  return loadBookingsPage(request, context);
}

const shortDate = new Intl.DateTimeFormat("en-US", {
  month: "short",
  day: "numeric",
  year: "numeric",
  timeZone: "UTC",
});

export default function Bookings({ loaderData }: Route.ComponentProps) {
  const { bookings, total, page, pages, date } = loaderData;
  const query = (p: number) =>
    `?${new URLSearchParams({ ...(date ? { date } : {}), ...(p > 1 ? { page: String(p) } : {}) })}`;
  const exportHref = `/api/bookings/export${date ? `?date=${date}` : ""}`;
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Seminar Bookings"
        description={`${total} registration${total === 1 ? "" : "s"} for the online investment seminar${date ? ` on ${shortDate.format(new Date(`${date}T00:00:00Z`))}` : ""}.`}
        actions={
          <a href={exportHref} download className={buttonClasses("outline")}>
            <Download className="size-4" aria-hidden /> Export CSV
          </a>
        }
      />
      <Form method="get" className="mb-4 flex flex-wrap items-end gap-2">
        <div className="grid gap-1.5">
          <Label htmlFor="date">Seminar date</Label>
          <Input id="date" name="date" type="date" defaultValue={date ?? ""} className="w-44" />
        </div>
        <Button type="submit" variant="secondary">
          Filter
        </Button>
        {date && (
          <Link to="/dashboard/bookings" className={buttonClasses("ghost")}>
            Show all
          </Link>
        )}
      </Form>
      {bookings.length === 0 ? (
        <EmptyState icon={<CalendarDays />} title={date ? "No bookings for this date." : "No seminar bookings yet."} />
      ) : (
        <Table>
          <caption className="sr-only">Seminar bookings, newest first</caption>
          <THead>
            <tr>
              <Th>Full Name</Th>
              <Th>Email</Th>
              <Th>Phone Number</Th>
              <Th>City</Th>
              <Th>Country</Th>
              <Th>Date</Th>
              <Th>Time</Th>
              <Th>Registered</Th>
            </tr>
          </THead>
          <TBody>
            {bookings.map((b) => (
              <Tr key={b._id}>
                <Td className="whitespace-nowrap font-medium">{b.fullName}</Td>
                <Td>
                  <a href={`mailto:${b.email}`} className="hover:underline">
                    {b.email}
                  </a>
                </Td>
                <Td className="whitespace-nowrap">{b.phoneNumber}</Td>
                <Td>{b.city}</Td>
                <Td>{b.country}</Td>
                <Td className="whitespace-nowrap">{shortDate.format(new Date(`${b.date}T00:00:00Z`))}</Td>
                <Td className="whitespace-nowrap">{b.time}</Td>
                <Td className="whitespace-nowrap text-muted-foreground">{formatTime(b.createdAt)}</Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
      {pages > 1 && (
        <nav aria-label="Pages" className="mt-4 flex items-center justify-between text-sm">
          <span className="text-muted-foreground">
            Page {page} of {pages}
          </span>
          <div className="flex gap-2">
            {page > 1 ? (
              <Link to={query(page - 1)} className={buttonClasses("outline", "sm")}>
                Previous
              </Link>
            ) : null}
            {page < pages ? (
              <Link to={query(page + 1)} className={buttonClasses("outline", "sm")}>
                Next
              </Link>
            ) : null}
          </div>
        </nav>
      )}
    </div>
  );
}
