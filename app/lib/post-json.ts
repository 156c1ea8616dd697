/** What the browser's payment buttons say when the request never reached the server. */
export const NETWORK_ERROR = "Network error. Please check your internet connection and try again.";

/** A JSON POST from the browser: whether it succeeded and its body (`{}` when it has none). */
export async function postJson(path: string, body: unknown): Promise<{ ok: boolean; body: Record<string, unknown> }> {
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { ok: res.ok, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}
