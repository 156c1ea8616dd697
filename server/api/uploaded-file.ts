import type { Context } from "hono";
import type { AppEnv } from "../middleware/types.ts";
import { badRequest } from "../http/errors.ts";

/**
 * The file in a multipart form's `field`, or 400 with `ifMissing`: a body that is not a form, a
 * form without the field, a text where a file belongs and an empty file are all "no file".
 */
export async function uploadedFile(c: Context<AppEnv>, field: string, ifMissing: string): Promise<File> {
  const form = await c.req.formData().catch(() => null);
  const file = form?.get(field);
  if (!(file instanceof File) || file.size === 0) throw badRequest(ifMissing);
  return file;
}
