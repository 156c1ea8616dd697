import { Clock, ExternalLink, FileCog, Globe, Mail, MapPin, MessageCircle, Phone, ReceiptText } from "lucide-react";
import type { Route } from "./+types/contact";
import { getRequestContext } from "~/lib/context.server";
import { CONTACT_TEXTS, type SupportContacts } from "~/lib/contact-info";
import { PageHeader } from "~/components/ui/page-header";
import { Card } from "~/components/ui/card";
import { ButtonLink } from "~/components/ui/button";

export const meta: Route.MetaFunction = () => [{ title: "Help & Contact | Business" }];

export async function loader({ context }: Route.LoaderArgs) {
  // The admins' Platform Settings (the environment gives first defaults, then the first admin's address).
  const settings = await getRequestContext(context).services.settings.effective();
  const support: SupportContacts = {
    email: settings.supportEmail,
    phone: settings.supportPhone,
    chatUrl: settings.supportChatUrl,
  };
  return { support };
}

/** Help & Contact: how to reach Pathshala's team (spec §1 contact text), and where common answers live. */
export default function HelpContact({ loaderData }: Route.ComponentProps) {
  const { support } = loaderData;
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title="Help & Contact"
        description="Questions about your plan, your website or your domain? Our team is here to help."
      />
      <div className="grid gap-4 sm:grid-cols-2">
        {/* Only the ways of reaching us that exist: a card never stands without its address or number. */}
        {support.email && (
          <ContactCard icon={Mail} title="Email support" text={CONTACT_TEXTS.email}>
            <a href={`mailto:${support.email}`} className="font-medium text-primary hover:underline">
              {support.email}
            </a>
          </ContactCard>
        )}
        {support.phone && (
          <ContactCard icon={Phone} title="Phone" text={CONTACT_TEXTS.phone}>
            <a
              href={`tel:${support.phone.replace(/[^\d+]/g, "")}`}
              className="font-medium text-primary hover:underline"
            >
              {support.phone}
            </a>
          </ContactCard>
        )}
        {support.chatUrl && (
          <ContactCard icon={MessageCircle} title="Live chat" text={CONTACT_TEXTS.chat}>
            <a
              href={support.chatUrl}
              target="_blank"
              rel="noopener noreferrer"
              className="inline-flex items-center gap-1 font-medium text-primary hover:underline"
            >
              Start a chat <ExternalLink className="size-3.5" aria-hidden />
            </a>
          </ContactCard>
        )}
        <ContactCard icon={MapPin} title="Location" text={CONTACT_TEXTS.location} />
      </div>

      <h2 className="mb-3 mt-8 text-lg font-semibold">Common answers</h2>
      <div className="grid gap-3 sm:grid-cols-3">
        <HelpLink
          to="/business/setup"
          icon={FileCog}
          title="Connect your domain"
          text="The DNS records to add, and whether they work yet."
        />
        <HelpLink
          to="/business/site"
          icon={Globe}
          title="Edit your website"
          text="Tagline, programs, contact details, logo and colours."
        />
        <HelpLink
          to="/business/subscription-details"
          icon={ReceiptText}
          title="Payments and renewal"
          text="Your plan, next billing date and every payment."
        />
      </div>
      <p className="mt-6 flex items-center gap-2 text-sm text-muted-foreground">
        <Clock className="size-4" aria-hidden /> When you write, include your institute's domain so that we can find it
        at once.
      </p>
    </div>
  );
}

function ContactCard({
  icon: Icon,
  title,
  text,
  children,
}: {
  icon: typeof Mail;
  title: string;
  text: string;
  children?: React.ReactNode;
}) {
  return (
    <Card className="flex gap-4 p-5" role="group" aria-label={title}>
      <span className="grid size-10 shrink-0 place-items-center rounded-lg bg-primary/10 text-primary">
        <Icon className="size-5" aria-hidden />
      </span>
      <div className="grid gap-0.5 text-sm">
        <p className="font-semibold">{title}</p>
        <p className="text-muted-foreground">{text}</p>
        {children}
      </div>
    </Card>
  );
}

function HelpLink({ to, icon: Icon, title, text }: { to: string; icon: typeof Mail; title: string; text: string }) {
  return (
    <ButtonLink to={to} variant="outline" className="h-auto flex-col items-start gap-1 whitespace-normal p-4 text-left">
      <span className="flex items-center gap-2 font-semibold">
        <Icon className="size-4" aria-hidden /> {title}
      </span>
      <span className="text-xs font-normal text-muted-foreground">{text}</span>
    </ButtonLink>
  );
}
