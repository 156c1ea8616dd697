import type { TestApp } from "./app.ts";

/** JSON request helpers for integration tests. */
export async function postJson(t: TestApp, path: string, body: unknown, init: RequestInit & { host?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json");
  return t.request(path, {
    ...init,
    method: init.method ?? "POST",
    headers,
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

let counter = 0;
/** A unique email for this test run. */
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}.${Date.now().toString(36)}.${counter}@example.com`;
}

export async function registerUser(
  t: TestApp,
  role: "student" | "creator" | "business" = "student",
  overrides: Partial<{ name: string; email: string; password: string; host: string }> = {},
) {
  const email = overrides.email ?? uniqueEmail(role);
  const password = overrides.password ?? "correct-horse-battery";
  const res = await postJson(
    t,
    "/api/auth/register",
    { name: overrides.name ?? `Test ${role}`, email, password, role },
    { host: overrides.host },
  );
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as {
    user: { _id: string; email: string; role: string };
    access_token: string;
    refresh_token: string;
  };
  return { ...body, email, password };
}

/** A 1×1 PNG. */
export const PNG_BYTES = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="),
  (ch) => ch.charCodeAt(0),
);
