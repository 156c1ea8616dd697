import { GraduationCap } from "lucide-react";
import { LogoMark } from "~/components/shell/logo";
import { useRootData } from "~/root";

/** An area's sidebar mark: the institute's logo (or a cap) on its own domain, Pathshala's on the platform. */
export function SiteMark() {
  const site = useRootData()?.site;
  if (site?.kind !== "tenant") return <LogoMark />;
  return site.logoUrl ? (
    <img src={site.logoUrl} alt="" className="size-7 shrink-0 rounded-md object-cover" />
  ) : (
    <GraduationCap className="size-7 shrink-0 text-primary" aria-hidden />
  );
}
