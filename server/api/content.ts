import { Hono, type Context } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { HttpError, jsonBody, notFound } from "../http/errors.ts";
import { operation } from "./openapi.ts";
import { idParam, requireAuth } from "./guards.ts";
import { requireCreatorDesk } from "./creator-desk.ts";
import { toContentJson, type ContentView } from "../services/content.ts";
import type { Services } from "../services/index.ts";
import type { Reader } from "../services/content-access.ts";
import { ContentAssign, ContentUpdate } from "#common/validation/content.ts";

const CONTENT_FIELDS = {
  title: "required",
  description: "optional",
  type: "pdf, video or live",
  price: "rupees, at least 0 (e.g. 499 or 499.50)",
  liveLink: "https:// link, required for live",
  liveStartsAt:
    "optional start of a live class: 2026-11-22T18:30 (India time) or an ISO time with its zone; its students see the link from 15 minutes before",
  businessId: "optional id of an active business",
  file: "the PDF or video (required for pdf and video; checked by its bytes)",
  thumbnail: "optional PNG, JPEG or WebP image (not for live)",
};

const CONTENT_NOT_FOUND = "Content not found";

const DESK_REFUSALS = {
  403: "Another creator's content, or the role held in the institute chosen does not allow content.write",
  404: "Not found (at an institute chosen in the header: not that institute's)",
};

/** The JSON of a content with a signed link its reader can open right away. */
export async function contentWithLink(services: Services, who: Reader, row: ContentView) {
  return toContentJson(row, (await linkIfAllowed(services, who, row))?.url ?? null);
}

/**
 * A signed link to the content's file when the reader may open it (content-access.ts: its creator,
 * admins, enrolled students, and whoever the policy lets write its institute, e.g. a colleague at
 * the institute's desk), else none.
 */
export async function linkIfAllowed(services: Services, who: Reader, row: ContentView) {
  try {
    return await services.delivery.link(who, row);
  } catch (error) {
    if (error instanceof HttpError && error.status === 403) return null;
    throw error;
  }
}

/**
 * Creator studio content (spec §7): upload, list, view, edit, assign, delete. JSON bodies are
 * validated once, by the service, with the schemas described above.
 */
export function contentRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  /**
   * The caller as the creator area knows them: a creator account's own work, or the institute
   * chosen in the header, where the policy must allow content.write (decision 0039).
   */
  const reader = async (c: Context<AppEnv>): Promise<Reader> =>
    (await requireCreatorDesk(c, services, database.db, "content.write")).reader;

  api.post(
    "/",
    operation({
      tag: "content",
      auth: "creator",
      summary:
        "Upload content (multipart, streamed to storage); at the institute chosen in the header it is that institute's",
      body: { multipart: CONTENT_FIELDS },
      responses: {
        201: "{content}",
        400: "Invalid input, missing file or wrong file type",
        403: "The role held in the institute chosen does not allow content.write, or another institute named",
        413: "File too large, or a PDF past the stamping's limits (pages, objects, object streams)",
      },
    }),
    async (c) => {
      const creator = await reader(c);
      const row = await services.content.upload(creator, {
        body: c.req.raw.body,
        headers: c.req.raw.headers,
        signal: c.req.raw.signal,
      });
      return c.json({ content: await contentWithLink(services, creator, row) }, 201);
    },
  );

  api.get(
    "/my",
    operation({
      tag: "content",
      auth: "creator",
      summary: "The caller's contents (search, sort, pages); at the institute chosen in the header, that institute's",
      query: {
        q: "search in titles",
        sort: "createdAt, title, type, price or status",
        dir: "asc or desc",
        page: "from 1",
        limit: "1 to 100 (default 100)",
      },
      responses: { 200: "{contents, total, page, limit}", 403: DESK_REFUSALS[403] },
    }),
    async (c) => {
      const creator = await reader(c);
      const query = c.req.query();
      const {
        items,
        total,
        query: q,
      } = await services.content.listMine(creator, { ...query, limit: query.limit ?? "100" });
      return c.json({ contents: items.map((row) => toContentJson(row)), total, page: q.page, limit: q.limit });
    },
  );

  api.get(
    "/:id",
    operation({
      tag: "content",
      auth: "creator",
      summary: "One of the caller's contents, with a signed file link (admins may view any)",
      responses: { 200: "{content}", ...DESK_REFUSALS },
    }),
    async (c) => {
      // Admins may look at any; everyone else as the creator area knows them.
      const { user } = requireAuth(c);
      const who = user.role === "admin" ? user : await reader(c);
      const row = await services.content.getForOwner(who, idParam(c, CONTENT_NOT_FOUND));
      return c.json({ content: await contentWithLink(services, who, row) });
    },
  );

  api.put(
    "/:id",
    operation({
      tag: "content",
      auth: "creator",
      summary: "Edit title, description, price, live link or status",
      body: ContentUpdate,
      responses: { 200: "{content}", 400: "Invalid input", ...DESK_REFUSALS },
    }),
    async (c) => {
      const creator = await reader(c);
      const id = idParam(c, CONTENT_NOT_FOUND);
      const row = await services.content.update(creator, id, await jsonBody(c));
      return c.json({ content: toContentJson(row) });
    },
  );

  api.delete(
    "/:id",
    operation({
      tag: "content",
      auth: "creator",
      summary: "Delete content (archived instead when students bought it)",
      responses: { 200: "{success, archived}", ...DESK_REFUSALS },
    }),
    async (c) => {
      const creator = await reader(c);
      const { archived } = await services.content.remove(creator, idParam(c, CONTENT_NOT_FOUND));
      return c.json({
        success: true,
        archived,
        message: archived ? "Content archived: students who bought it keep access." : "Content deleted.",
      });
    },
  );

  api.put(
    "/:id/assign",
    operation({
      tag: "content",
      auth: "creator",
      summary: "Assign to an active business, or unassign with null",
      body: ContentAssign,
      responses: {
        200: "{content}",
        400: "Not an active business",
        ...DESK_REFUSALS,
      },
    }),
    async (c) => {
      const creator = await reader(c);
      const id = idParam(c, CONTENT_NOT_FOUND);
      const row = await services.content.assign(creator, id, await jsonBody(c));
      return c.json({ content: toContentJson(row) });
    },
  );

  api.get(
    "/:id/file-url",
    operation({
      tag: "content",
      auth: "signed-in",
      summary: "A fresh short-lived signed link to the content's file",
      query: { ttl: "seconds the link lives (30 to 86400, default 900)" },
      responses: { 200: "{url, expiresAt}", 403: "No access", 404: "Not found or no file" },
    }),
    async (c) => {
      const { user } = requireAuth(c);
      const row = await services.content.findAny(idParam(c, "File not found"));
      if (!row?.fileKey) throw notFound("File not found");
      const ttl = Number(c.req.query("ttl"));
      const link = await services.delivery.link(user, row, Number.isFinite(ttl) && ttl > 0 ? ttl : undefined);
      return c.json({ url: link!.url, expiresAt: link!.expiresAt.toISOString() });
    },
  );

  return api;
}
