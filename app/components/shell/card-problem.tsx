import { CircleAlert, CircleCheck } from "lucide-react";
import { ButtonLink } from "~/components/ui/button";

/** A card page's one-message answer (an invitation not found, expired, used, answered), with the way home. */
export function CardProblem({ title, text, done = false }: { title: string; text: string; done?: boolean }) {
  const Icon = done ? CircleCheck : CircleAlert;
  return (
    <div className="text-center">
      <Icon className="mx-auto size-10 text-muted-foreground" aria-hidden />
      <h1 className="mt-3 text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="mt-2 text-muted-foreground">{text}</p>
      <ButtonLink to="/" reloadDocument variant="outline" className="mt-6">
        Go to the home page
      </ButtonLink>
    </div>
  );
}
