import { Hono, type Context } from "hono";
import type { AppDeps, AppEnv } from "../middleware/types.ts";
import { errorBody } from "../http/errors.ts";
import { limitBody } from "../middleware/body-limit.ts";
import { input, operation } from "./openapi.ts";
import { BankQuery, TEAM_ONLY, writers } from "./mock-test-team.ts";
import { deskReader } from "./creator-desk.ts";
import { uploadedFile } from "./uploaded-file.ts";
import { QUESTION_IMAGE_LIMITS, QUESTION_IMAGE_TEXTS } from "../services/mock-tests/question-images.ts";

/** POST /api/question-images: a figure for a question, its options or its solution (issue 38 §1). */
export function questionImagesRouter({ services, database }: AppDeps) {
  const api = new Hono<AppEnv>();
  const guardWriters = writers(services, database.db);
  api.post(
    "/",
    operation({
      tag: "tests",
      auth: "signed-in",
      summary:
        "Upload an image (PNG, JPEG, WebP or SVG, at most 5 MB) for a question of a bank the caller may write to; it is re-encoded for phones (WebP, at most 1600 px wide) and the answer's url goes into the question's Markdown as ![figure](url)",
      body: { multipart: { file: "the image" } },
      responses: {
        201: "{success, url, width, height}",
        400: "Not a PNG, JPEG, WebP or SVG image, an unreadable one, or an SVG that refers to other files",
        ...TEAM_ONLY,
        413: "The image is larger than 5 MB or 40 megapixels",
      },
    }),
    guardWriters,
    input("query", BankQuery),
    limitBody(QUESTION_IMAGE_LIMITS.maxBytes + 64 * 1024, (c: Context) =>
      c.json(errorBody(QUESTION_IMAGE_TEXTS.tooLarge), 413),
    ),
    async (c) => {
      const file = await uploadedFile(c, "file", QUESTION_IMAGE_TEXTS.noFile);
      const image = await services.questionImages.upload(
        deskReader(c),
        new Uint8Array(await file.arrayBuffer()),
        c.req.valid("query").bank,
      );
      c.header("Cache-Control", "no-store");
      return c.json({ success: true, url: image.url, width: image.width, height: image.height }, 201);
    },
  );
  return api;
}
