import type { SiteData, TemplateId } from "./types";
import { BASE_CSS } from "./shared/base-css";
import { Template1, T1_CSS } from "./t1";
import { Template2, T2_CSS } from "./t2";
import { Template3, T3_CSS } from "./t3";
import { Template4, T4_CSS } from "./t4";

export * from "./types";
export * from "./defaults";

export const TEMPLATES: Record<
  TemplateId,
  { Component: (props: { data: SiteData }) => React.ReactElement; css: string }
> = {
  t1: { Component: Template1, css: BASE_CSS + T1_CSS },
  t2: { Component: Template2, css: BASE_CSS + T2_CSS },
  t3: { Component: Template3, css: BASE_CSS + T3_CSS },
  t4: { Component: Template4, css: BASE_CSS + T4_CSS },
};

/** A template with its styles inline: for previews inside the business area. */
export function TemplateView({ templateId, data }: { templateId: TemplateId; data: SiteData }) {
  const { Component, css } = TEMPLATES[templateId];
  return (
    <>
      <style>{css}</style>
      <Component data={data} />
    </>
  );
}
