import { Form, Link, useNavigation } from "react-router";
import { Mail, RotateCw } from "lucide-react";
import type { Route } from "./+types/messages";
import { getRequestContext } from "~/lib/context.server";
import { tryService } from "~/lib/actions.server";
import { flashToastCookie } from "~/lib/toast.server";
import { CHANNEL_NAMES, MESSAGE_TEXTS, type MessageStatus } from "#common/messages.ts";
import { PageHeader } from "~/components/ui/page-header";
import { Badge } from "~/components/ui/badge";
import { Button, buttonClasses } from "~/components/ui/button";
import { EmptyState } from "~/components/ui/empty-state";
import { Table, TBody, Td, Th, THead, Tr } from "~/components/ui/table";
import { cn } from "~/lib/cn";
import { FormError } from "~/components/ui/form-message";
import { formatTime } from "#common/time.ts";

export const meta: Route.MetaFunction = () => [
  { title: "Messages | Pathshala" },
  { name: "robots", content: "noindex" },
];

/** The page's lists: failed messages (to retry), those the recipient policy held back, and all recent ones. */
const SHOWN = {
  failed: {
    label: "Failed",
    status: "failed",
    empty: "No failed messages.",
    caption: "Failed messages",
    why: "Last error",
  },
  held: {
    label: "Held back",
    status: "held",
    empty: "No messages held back.",
    caption: "Messages held back",
    why: "Why held",
  },
  all: {
    label: "All recent",
    status: undefined,
    empty: "No messages yet.",
    caption: "Recent messages",
    why: "Error or reason",
  },
} as const satisfies Record<string, { status: MessageStatus | undefined } & Record<string, unknown>>;
type Shown = keyof typeof SHOWN;

const shownOf = (value: string | null): Shown => (value === "all" || value === "held" ? value : "failed");

// Only admins reach this page: the dashboard layout's guard sends everyone else to the overview.
export async function loader({ request, context }: Route.LoaderArgs) {
  const shown = shownOf(new URL(request.url).searchParams.get("show"));
  const { services } = getRequestContext(context);
  return {
    shown,
    messages: await services.messages.list(SHOWN[shown].status),
    sandbox: services.messages.sandbox,
  };
}

/** Retry: the failed message is queued again, and the page comes back with a toast. */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const { services } = getRequestContext(context);
  const done = await tryService(() => services.messages.retry(String(form.get("id") ?? "")));
  if (!done.ok) return done.response;
  return new Response(null, {
    status: 303,
    headers: {
      Location: new URL(request.url).pathname + new URL(request.url).search,
      "Set-Cookie": flashToastCookie({ kind: "success", title: MESSAGE_TEXTS.retried, description: done.value.to }),
    },
  });
}

const TONES: Record<MessageStatus, "success" | "destructive" | "muted" | "warning" | "default"> = {
  queued: "warning",
  sending: "warning",
  sent: "success",
  delivered: "success",
  read: "success",
  failed: "destructive",
  skipped: "muted",
  held: "warning",
};

export default function Messages({ loaderData, actionData }: Route.ComponentProps) {
  const { shown, messages, sandbox } = loaderData;
  const list = SHOWN[shown];
  const busyId = useNavigation().formData?.get("id");
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Messages"
        description="E-mail, WhatsApp and SMS the product sends: those that failed after every retry, with their error, can be sent again. Those held back (a number we may not reach, a daily limit) are never sent; each says why."
        actions={
          sandbox ? (
            <a href="/_sandbox/outbox" className={buttonClasses("outline")}>
              <Mail className="size-4" aria-hidden /> Sandbox outbox
            </a>
          ) : undefined
        }
      />
      <nav aria-label="Which messages" className="mb-4 flex gap-2">
        {(Object.keys(SHOWN) as Shown[]).map((key) => (
          <Link
            key={key}
            to={key === "failed" ? "/dashboard/messages" : `/dashboard/messages?show=${key}`}
            aria-current={key === shown ? "page" : undefined}
            className={cn(buttonClasses(key === shown ? "default" : "outline"), "h-9")}
          >
            {SHOWN[key].label}
          </Link>
        ))}
      </nav>
      {actionData && !actionData.ok && <FormError className="mb-4">{actionData.error}</FormError>}
      {messages.length === 0 ? (
        <EmptyState icon={<Mail />} title={list.empty} />
      ) : (
        <Table>
          <caption className="sr-only">{list.caption}, newest first</caption>
          <THead>
            <tr>
              <Th>To</Th>
              <Th>Message</Th>
              <Th>State</Th>
              <Th>{list.why}</Th>
              <Th>Written</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </THead>
          <TBody>
            {messages.map((m) => (
              <Tr key={m.id}>
                <Td>
                  <span className="block text-xs text-muted-foreground">{CHANNEL_NAMES[m.channel]}</span>
                  <span className="break-all">{m.to}</span>
                </Td>
                <Td>
                  <span className="line-clamp-2 block font-medium">{m.subject ?? m.text}</span>
                  <span className="text-xs text-muted-foreground">{m.template}</span>
                </Td>
                <Td>
                  <Badge tone={TONES[m.status]}>{m.status}</Badge>
                  <span className="mt-1 block text-xs text-muted-foreground">
                    {m.status === "held" ? "never sent" : `${m.attempts} ${m.attempts === 1 ? "try" : "tries"}`}
                  </span>
                </Td>
                <Td className="max-w-xs text-xs">{m.error ?? "—"}</Td>
                <Td className="whitespace-nowrap text-xs">{formatTime(m.createdAt, "dayTime")}</Td>
                <Td>
                  {m.status === "failed" && (
                    <Form method="post">
                      <input type="hidden" name="id" value={m.id} />
                      <Button type="submit" variant="outline" size="sm" disabled={busyId === m.id}>
                        <RotateCw className="size-4" aria-hidden /> Retry
                      </Button>
                    </Form>
                  )}
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
    </div>
  );
}
