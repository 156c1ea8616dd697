import { useEffect, useRef, useState } from "react";
import { Form, redirect, useLocation, useNavigate, useNavigation } from "react-router";
import { toast } from "~/lib/toast";
import { FileText, Radio, UploadCloud, Video, X } from "lucide-react";
import type { Route } from "./+types/upload";
import { creatorContext, tryAction } from "~/lib/creator.server";
import { flashToastCookie } from "~/lib/toast.server";
import { creatorPaths } from "~/lib/creator-paths";
import { formatBytes } from "#common/format.ts";
import {
  CONTENT_TYPE_LABELS,
  FILE_REQUIRED,
  LIVE_LINK_INVALID,
  LIVE_LINK_REQUIRED,
  UPLOAD_FAILED,
  isHttpsUrl,
  type UploadType,
} from "#common/validation/content.ts";
import { Button } from "~/components/ui/button";
import { Card, CardContent } from "~/components/ui/card";
import { Field } from "~/components/ui/field";
import { Input, Select, Textarea } from "~/components/ui/input";
import { PageHeader } from "~/components/ui/page-header";
import { cn } from "~/lib/cn";
import { NO_TEAMS_HINT } from "#common/validation/team.ts";

export const meta: Route.MetaFunction = () => [{ title: "Upload | Creator Studio" }];

export async function loader({ context, request }: Route.LoaderArgs) {
  const { services, creator } = await creatorContext(context, request);
  const businesses = await services.team.assignableBusinesses(creator);
  // At the institute chosen in the header, new content is that institute's.
  const desk = creator.desk ?? null;
  return {
    businesses: desk ? businesses.filter((b) => b._id === desk) : businesses,
    desk,
    limits: services.content.limits,
  };
}

/** Without JavaScript the form posts here and streams through the same service as the API. */
export async function action({ request, context }: Route.ActionArgs) {
  const { services, creator } = await creatorContext(context, request);
  const result = await tryAction(async () => ({ content: await services.content.upload(creator, request) }));
  if ("ok" in result && result.ok) {
    const to = creatorPaths(new URL(request.url).pathname).contents;
    throw redirect(to, {
      headers: {
        "Set-Cookie": flashToastCookie({
          kind: "success",
          title: "Content uploaded",
          description: result.content.title,
        }),
      },
    });
  }
  return result;
}

const TYPE_ICONS = { pdf: FileText, video: Video, live: Radio } as const;
const ACCEPT: Record<Exclude<UploadType, "live">, string> = { pdf: ".pdf,application/pdf", video: "video/*" };

interface Progress {
  loaded: number;
  total: number;
}

export default function UploadPage({ loaderData, actionData }: Route.ComponentProps) {
  const { businesses, desk, limits } = loaderData;
  const location = useLocation();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const paths = creatorPaths(location.pathname);
  const [type, setType] = useState<UploadType>("pdf");
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const xhr = useRef<XMLHttpRequest | null>(null);
  const uploading = progress !== null || navigation.state === "submitting";
  const shownError = error ?? (actionData && !actionData.ok ? actionData.error : null);

  // Leaving the page cancels an upload in flight (the server then discards its bytes).
  useEffect(() => () => xhr.current?.abort(), []);

  const onSubmit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const file = data.get("file");
    const thumbnail = data.get("thumbnail");
    const hasFile = file instanceof File && file.size > 0;
    const problem = checkBeforeUpload(
      type,
      data,
      hasFile ? (file as File) : null,
      thumbnail instanceof File ? thumbnail : null,
      limits,
    );
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    // Text fields first, then the thumbnail, then the big file: the server checks the small things
    // before a single byte of a large video is accepted.
    const body = new FormData();
    for (const name of ["title", "description", "type", "price", "businessId"])
      body.set(name, String(data.get(name) ?? ""));
    if (type === "live") {
      body.set("liveLink", String(data.get("liveLink") ?? ""));
      body.set("liveStartsAt", String(data.get("liveStartsAt") ?? ""));
    } else {
      if (thumbnail instanceof File && thumbnail.size > 0) body.set("thumbnail", thumbnail);
      body.set("file", file as File);
    }
    send(body);
  };

  const send = (body: FormData) => {
    const request = new XMLHttpRequest();
    xhr.current = request;
    request.open("POST", "/api/content");
    request.responseType = "json";
    request.upload.onprogress = (e) => setProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : 0 });
    request.onload = () => {
      xhr.current = null;
      setProgress(null);
      const response = request.response as { content?: { title: string }; error?: string } | null;
      if (request.status === 201 && response?.content) {
        toast.success("Content uploaded", { description: response.content.title, duration: 5000 });
        navigate(paths.contents);
      } else {
        setError(response?.error || UPLOAD_FAILED);
      }
    };
    request.onerror = () => {
      xhr.current = null;
      setProgress(null);
      setError(UPLOAD_FAILED);
    };
    request.onabort = () => {
      xhr.current = null;
      setProgress(null);
      toast("Upload cancelled", { duration: 3000 });
    };
    setProgress({ loaded: 0, total: 0 });
    request.send(body);
  };

  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader
        title="Upload"
        description="Publish a PDF, a video or a live class. Students can buy it once you assign it to a business."
      />
      <Card>
        <CardContent className="pt-6">
          <Form
            method="post"
            encType="multipart/form-data"
            onSubmit={onSubmit}
            className="group grid gap-5"
            aria-busy={uploading}
          >
            <fieldset className="grid gap-2" disabled={uploading}>
              <legend className="mb-2 text-sm font-medium">Type</legend>
              <div className="grid grid-cols-3 gap-2">
                {(["pdf", "video", "live"] as const).map((value) => {
                  const Icon = TYPE_ICONS[value];
                  return (
                    <label
                      key={value}
                      className={cn(
                        "flex cursor-pointer flex-col items-center gap-1.5 rounded-lg border p-3 text-sm font-medium transition",
                        "has-[:checked]:border-primary has-[:checked]:bg-primary/5 has-[:checked]:text-primary has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring",
                      )}
                    >
                      <input
                        type="radio"
                        name="type"
                        value={value}
                        id={`type-${value}`}
                        checked={type === value}
                        onChange={() => {
                          setType(value);
                          setError(null);
                        }}
                        className="sr-only"
                      />
                      <Icon className="size-5" aria-hidden />
                      {CONTENT_TYPE_LABELS[value]}
                    </label>
                  );
                })}
              </div>
            </fieldset>

            <fieldset className="grid gap-5" disabled={uploading}>
              <Field label="Title">
                <Input name="title" required maxLength={200} autoComplete="off" />
              </Field>
              <Field label="Description">
                <Textarea name="description" maxLength={5000} rows={4} />
              </Field>
              <div className="grid gap-5 sm:grid-cols-2">
                <Field label="Price (₹)" hint="In rupees. 0 makes it free.">
                  <Input name="price" type="number" min={0} step="0.01" inputMode="decimal" defaultValue="0" required />
                </Field>
                <Field
                  label="Business"
                  hint={businesses.length ? "Optional: the institute that sells it." : NO_TEAMS_HINT}
                >
                  <Select name="businessId" defaultValue={desk ?? ""}>
                    {!desk && <option value="">Unassigned</option>}
                    {businesses.map((b) => (
                      <option key={b._id} value={b._id}>
                        {b.name}
                      </option>
                    ))}
                  </Select>
                </Field>
              </div>

              {/* Shown by CSS from the chosen type, so the form also works before (or without) JavaScript. */}
              <div className="grid gap-5 group-has-[#type-live:checked]:hidden">
                <Field
                  label="File"
                  hint={
                    type === "video"
                      ? `MP4, WebM or QuickTime, up to ${formatBytes(limits.video)}.`
                      : `PDF, up to ${formatBytes(limits.pdf)}.`
                  }
                >
                  <Input name="file" type="file" accept={type === "live" ? undefined : ACCEPT[type]} />
                </Field>
                <Field label="Thumbnail (optional)" hint={`PNG, JPEG or WebP, up to ${formatBytes(limits.image)}.`}>
                  <Input name="thumbnail" type="file" accept="image/png,image/jpeg,image/webp" />
                </Field>
              </div>
              <div className="hidden group-has-[#type-live:checked]:grid">
                <Field label="Live Link" hint="The https:// meeting link students join.">
                  <Input
                    name="liveLink"
                    type="url"
                    placeholder="https://meet.google.com/abc-defg-hij"
                    inputMode="url"
                  />
                </Field>
                <Field
                  label="Class starts at (optional)"
                  hint="India time. Enrolled students see the link from 15 minutes before; without a time, as soon as they enrol."
                >
                  <Input name="liveStartsAt" type="datetime-local" />
                </Field>
              </div>
            </fieldset>

            {shownError && (
              <p role="alert" className="rounded-md bg-destructive/10 px-3 py-2 text-sm text-destructive">
                {shownError}
              </p>
            )}

            {progress && <UploadProgress progress={progress} onCancel={() => xhr.current?.abort()} />}

            <div className="flex justify-end">
              <Button type="submit" size="lg" disabled={uploading}>
                <UploadCloud className="size-4" aria-hidden />
                {uploading ? "Uploading..." : "Upload"}
              </Button>
            </div>
          </Form>
        </CardContent>
      </Card>
    </div>
  );
}

function UploadProgress({ progress, onCancel }: { progress: Progress; onCancel: () => void }) {
  const percent = progress.total ? Math.min(100, Math.floor((progress.loaded / progress.total) * 100)) : 0;
  const sent = progress.total > 0 && progress.loaded >= progress.total;
  return (
    <div className="grid gap-2 rounded-lg border bg-muted/40 p-4">
      <div className="flex items-center justify-between gap-3 text-sm">
        <span className="font-medium" aria-live="polite">
          {sent ? "Finishing up..." : `${percent}%`}
        </span>
        <span className="text-muted-foreground tabular-nums">
          {formatBytes(progress.loaded)}
          {progress.total ? ` of ${formatBytes(progress.total)}` : ""}
        </span>
      </div>
      <div
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className="h-2 overflow-hidden rounded-full bg-muted"
      >
        <div
          className="h-full rounded-full bg-primary transition-[width] duration-200"
          style={{ width: `${percent}%` }}
        />
      </div>
      <div className="flex justify-end">
        <Button variant="outline" size="sm" onClick={onCancel} disabled={sent}>
          <X className="size-4" aria-hidden /> Cancel
        </Button>
      </div>
    </div>
  );
}

/** The checks the server repeats, done first so that a wrong file is not sent at all. */
function checkBeforeUpload(
  type: UploadType,
  data: FormData,
  file: File | null,
  thumbnail: File | null,
  limits: { pdf: number; video: number; image: number },
): string | null {
  if (!String(data.get("title") ?? "").trim()) return "Title is required";
  const price = Number(data.get("price") || 0);
  if (!Number.isFinite(price)) return "Price must be a number";
  if (price < 0) return "Price cannot be negative";
  if (type === "live") {
    const link = String(data.get("liveLink") ?? "").trim();
    if (!link) return LIVE_LINK_REQUIRED;
    return isHttpsUrl(link) ? null : LIVE_LINK_INVALID;
  }
  if (!file) return FILE_REQUIRED;
  const max = type === "pdf" ? limits.pdf : limits.video;
  if (file.size > max) return `The ${type === "pdf" ? "PDF" : "video"} must be ${formatBytes(max)} or smaller.`;
  if (thumbnail && thumbnail.size > limits.image)
    return `The thumbnail must be ${formatBytes(limits.image)} or smaller.`;
  return null;
}
