import { useEffect } from "react";
import { useFetcher, useSearchParams } from "react-router";
import { IndianRupee, Undo2 } from "lucide-react";
import type { Route } from "./+types/payments";
import { loadBusinessCenter, notAllowed } from "~/lib/business.server";
import { failure, tryService } from "~/lib/actions.server";
import { toast } from "~/lib/toast";
import { PageHeader } from "~/components/ui/page-header";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { Badge } from "~/components/ui/badge";
import { Button, ButtonLink } from "~/components/ui/button";
import { ConfirmedSubmit } from "~/components/ui/confirm";
import { EmptyState } from "~/components/ui/empty-state";
import { NoSubscription } from "~/components/business/no-subscription";
import { STUDENT_PAYMENT_TEXTS, STUDENT_PAYMENTS_PER_PAGE, type StudentPaymentJson } from "#common/purchases.ts";
import { formatDate, formatRupees } from "#common/format.ts";
import { formatTime } from "#common/time.ts";

export const meta: Route.MetaFunction = () => [{ title: "Student Payments | Business" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { center, services, may } = await loadBusinessCenter(context, request);
  if (!center) return { center: null, payments: [] as StudentPaymentJson[], page: 1, mayRefund: false };
  const page = Math.max(1, Number(new URL(request.url).searchParams.get("page")) || 1);
  const payments = await services.refunds.studentPayments(center.id, {
    limit: STUDENT_PAYMENTS_PER_PAGE,
    offset: (page - 1) * STUDENT_PAYMENTS_PER_PAGE,
  });
  return { center: { instituteName: center.instituteName }, payments, page, mayRefund: may("payments.refund") };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { center, services, may, viewer } = await loadBusinessCenter(context, request);
  if (!center) return failure("No active subscription found.", 404);
  if (!may("payments.refund")) return failure(notAllowed("payments.refund"), 403);
  const form = await request.formData();
  const done = await tryService(() =>
    services.refunds.refundStudentPayment(center.id, String(form.get("id") ?? ""), viewer.id),
  );
  if (!done.ok) return done.response;
  return { ok: true as const, message: STUDENT_PAYMENT_TEXTS.refunded };
}

const rupees = (paise: number) => formatRupees(paise / 100);

export default function StudentPayments({ loaderData }: Route.ComponentProps) {
  const { center, payments, page, mayRefund } = loaderData;
  const [params] = useSearchParams();
  if (!center) return <NoSubscription title="Student Payments" />;
  const link = (to: number) => {
    const next = new URLSearchParams(params);
    next.set("page", String(to));
    return `?${next.toString()}`;
  };
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Student Payments"
        description={`What students paid ${center.instituteName} online, into your own Razorpay account. ${
          mayRefund ? "A refund goes back through that account." : "Refunds are the owner's decision."
        }`}
      />
      {payments.length === 0 ? (
        <EmptyState
          icon={<IndianRupee />}
          title="No payments yet. Each course, test or series a student buys on your website appears here."
        />
      ) : (
        <Table>
          <THead>
            <tr>
              <Th>Paid</Th>
              <Th>Student</Th>
              <Th>For</Th>
              <Th className="text-right">Amount</Th>
              <Th>Payment</Th>
              <Th>Refund</Th>
            </tr>
          </THead>
          <TBody>
            {payments.map((payment) => (
              <Tr key={payment._id}>
                <Td className="whitespace-nowrap text-muted-foreground">{formatTime(payment.paidAt)}</Td>
                <Td>
                  <div className="font-medium">{payment.student.name}</div>
                  <div className="text-muted-foreground">{payment.student.email}</div>
                </Td>
                <Td>{payment.item}</Td>
                <Td className="text-right tabular-nums">{rupees(payment.amount)}</Td>
                <Td className="font-mono text-xs text-muted-foreground">{payment.paymentId}</Td>
                <Td>
                  <RefundCell payment={payment} mayRefund={mayRefund} />
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
      {(page > 1 || payments.length === STUDENT_PAYMENTS_PER_PAGE) && (
        <div className="mt-4 flex items-center justify-between text-sm">
          <span className="text-muted-foreground">Page {page}</span>
          <div className="flex gap-2">
            <ButtonLink to={link(page - 1)} variant="outline" size="sm" aria-disabled={page <= 1}>
              Previous
            </ButtonLink>
            <ButtonLink
              to={link(page + 1)}
              variant="outline"
              size="sm"
              aria-disabled={payments.length < STUDENT_PAYMENTS_PER_PAGE}
            >
              Next
            </ButtonLink>
          </div>
        </div>
      )}
    </div>
  );
}

function RefundCell({ payment, mayRefund }: { payment: StudentPaymentJson; mayRefund: boolean }) {
  const fetcher = useFetcher<typeof action>();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (!result) return;
    if (result.ok) toast.success(result.message, { duration: 4000 });
    else toast.error("Could not refund this payment", { description: result.error, duration: 6000 });
  }, [result]);
  if (payment.refund)
    return payment.refund.status === "processed" ? (
      <Badge tone="muted">Refunded {payment.refund.processedAt ? formatDate(payment.refund.processedAt) : ""}</Badge>
    ) : (
      <Badge tone="muted">Refund under way</Badge>
    );
  if (!payment.paidToInstitute)
    return (
      <span className="text-muted-foreground" title="Made before your institute connected its own account">
        {STUDENT_PAYMENT_TEXTS.paidToPlatform}
      </span>
    );
  if (!mayRefund) return <span className="text-muted-foreground">—</span>;
  const busy = fetcher.state !== "idle";
  const button = (type: "button" | "submit") => (
    <Button
      type={type}
      size="sm"
      variant="outline"
      disabled={busy}
      aria-label={`Refund ${payment.student.name}'s payment for ${payment.item}`}
    >
      <Undo2 className="size-4" aria-hidden /> {busy ? "Refunding..." : "Refund"}
    </Button>
  );
  return (
    <ConfirmedSubmit
      button={button}
      fields={{ id: payment._id }}
      submit={(fields) => fetcher.submit(fields, { method: "post" })}
      title="Refund this payment?"
      description={STUDENT_PAYMENT_TEXTS.confirm(payment.student.name, rupees(payment.amount))}
      confirmLabel="Refund"
    />
  );
}
