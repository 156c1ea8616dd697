import { eq } from "drizzle-orm";
import { contents } from "../../server/db/schema/index.ts";
import type { TestApp } from "./app.ts";
import { bearer, postJson } from "./http.ts";
import { uploadContent, type UploadFields } from "./content.ts";

/** Publishes a content as `creatorToken` and returns its id. */
export async function publish(
  t: TestApp,
  creatorToken: string,
  fields: UploadFields,
  file?: Uint8Array<ArrayBuffer>,
  fileName?: string,
): Promise<string> {
  const res = await uploadContent(t, creatorToken, fields, file ? { file, fileName } : {});
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return (await res.json()).content._id as string;
}

/** Sets columns the upload form does not (a live class's start time, the active flag, archiving). */
export async function setContent(t: TestApp, id: string, set: Partial<typeof contents.$inferInsert>) {
  await t.database.db.update(contents).set(set).where(eq(contents.id, id));
}

/** A bearer token for `email` on `host` (sessions are valid only on the host they were issued on). */
export async function loginOn(
  t: TestApp,
  host: string,
  email: string,
  password = "correct-horse-battery",
): Promise<string> {
  const res = await postJson(t, "/api/auth/login", { email, password }, { host });
  if (res.status !== 200) throw new Error(`login failed on ${host}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}

export const enrol = (t: TestApp, token: string, contentId: unknown, host?: string) =>
  postJson(t, "/api/student/enroll", { contentId }, { headers: bearer(token), host });

export const myCourses = async (t: TestApp, token: string, host?: string) => {
  const res = await t.request("/api/student/my-courses", { headers: bearer(token), host });
  if (res.status !== 200) throw new Error(`my-courses failed: ${res.status} ${await res.text()}`);
  return (await res.json()).items as { enrollmentId: string; content: Record<string, unknown> & { _id: string } }[];
};

let ips = 0;
/**
 * Registers an account from an address of its own, so that a suite making many accounts stays
 * under the per-address sign-up limit (the app must be created with TRUST_PROXY=1).
 */
export async function register(
  t: TestApp,
  role: "student" | "creator" | "business" = "student",
  options: { name?: string; host?: string } = {},
) {
  ips += 1;
  const email = `${role}.${Date.now().toString(36)}.${ips}@example.com`;
  const password = "correct-horse-battery";
  const res = await postJson(
    t,
    "/api/auth/register",
    { name: options.name ?? `Test ${role} ${ips}`, email, password, role },
    {
      host: options.host,
      headers: { "x-forwarded-for": `10.${(ips >> 16) & 255}.${(ips >> 8) & 255}.${ips & 255}` },
    },
  );
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as {
    user: { _id: string; email: string; role: string; name: string };
    access_token: string;
    refresh_token: string;
  };
  return { ...body, email, password };
}
