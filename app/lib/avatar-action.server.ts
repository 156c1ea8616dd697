import { data, type RouterContextProvider } from "react-router";
import { HttpError } from "../../server/http/errors.ts";
import { AVATAR_MAX_BYTES } from "../../server/api/auth.ts";
import { getRequestContext } from "./context.server";
import { getViewer } from "./session.server";

/** The avatar upload every account page shares (the same checks as PUT /api/auth/avatar). */
export async function uploadAvatar(request: Request, context: Readonly<RouterContextProvider>) {
  const viewer = getViewer(context);
  if (!viewer) return data({ ok: false as const, error: "Please sign in to continue." }, { status: 401 });
  const form = await request.formData().catch(() => null);
  const file = form?.get("avatar");
  if (!(file instanceof File) || file.size === 0)
    return data({ ok: false as const, error: "Please choose an image to upload." }, { status: 400 });
  try {
    const user = await getRequestContext(context).services.media.replaceAvatar(viewer.id, file, AVATAR_MAX_BYTES);
    return { ok: true as const, avatarUrl: `/media/${user.avatarKey}` };
  } catch (error) {
    if (error instanceof HttpError) return data({ ok: false as const, error: error.message }, { status: error.status });
    throw error;
  }
}
