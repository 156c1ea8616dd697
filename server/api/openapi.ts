import { toJsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";

/**
 * The API's public contract (spec §7) as an OpenAPI 3.1 document, served at /api/openapi.json.
 * Routers describe their operations next to their code with `describe`; request bodies come
 * from the same valibot schemas the handlers validate with. The statuses every operation of its
 * kind can answer (400, 401, 403, 404, 413, 503) are added by `answersOf`; an operation lists its own.
 * Tests check that every mounted /api route is described here and that every status the API
 * answers is documented for its operation.
 */
export interface Operation {
  method: "get" | "post" | "put" | "delete" | "patch";
  /** OpenAPI form: /content/{id} (relative to /api). */
  path: string;
  summary: string;
  tag: string;
  /** "public" needs nothing; the others need a session (cookie) or a bearer access token. */
  auth: "public" | "signed-in" | "admin" | "student" | "creator" | "business";
  body?: v.GenericSchema | { multipart: Record<string, string> };
  query?: Record<string, string>;
  /** The platform's own operation (`platformOnly`): 404 on an institute's domain. Admins' operations all are. */
  platformOnly?: true;
  responses: Record<number, Answer>;
}

/** An answer: its description, and its media types when it is not the API's JSON (none: no body). */
export type Answer = string | { description: string; content: string[] };

const BAD_INPUT =
  "Bad input, named in `issues` (including text that cannot be stored, anywhere in the address or body)";
const SIGNED_OUT = "Not signed in, or the session has expired";
const OTHER_SITE = "A cookie-signed-in write sent from another site";

/** Every status `op` can answer: what its kind of operation can, then what it lists itself. */
export function answersOf(op: Operation): Record<number, Answer> {
  const derived: Record<number, Answer> = { 400: BAD_INPUT };
  const role = op.auth !== "public" && op.auth !== "signed-in" ? op.auth : null;
  const writes = op.method !== "get";
  if (op.auth !== "public") derived[401] = SIGNED_OUT;
  if (role || writes)
    derived[403] = [role ? `Not ${role === "admin" ? "an admin" : `a ${role}`} account` : "", writes ? OTHER_SITE : ""]
      .filter(Boolean)
      .join("; or ");
  const notFound = [
    /\{\w+\}/.test(op.path) ? "Not found (an id that is not a UUID names nothing)" : "",
    op.platformOnly || op.auth === "admin"
      ? "Asked on an institute's domain: the platform's own operations are not there"
      : "",
  ].filter(Boolean);
  if (notFound.length) derived[404] = notFound.join("; or ");
  if (writes) derived[413] = "The request body is too large";
  derived[503] = "The server is restarting or cannot reach its database: try again (Retry-After)";
  return { ...derived, ...op.responses };
}

function answerObject(code: number, answer: Answer) {
  const { description, content } =
    typeof answer === "string" ? { description: answer, content: ["application/json"] } : answer;
  if (content.length === 0) return { description };
  const schemaOf = (type: string) =>
    type === "application/json" && code >= 400 ? { schema: { $ref: "#/components/schemas/Error" } } : {};
  return { description, content: Object.fromEntries(content.map((type) => [type, schemaOf(type)])) };
}

const operations: Operation[] = [];

export function describe(...ops: Operation[]): void {
  for (const op of ops) {
    if (!operations.some((o) => o.method === op.method && o.path === op.path)) operations.push(op);
  }
}

export function describedOperations(): readonly Operation[] {
  return operations;
}

/** What the described operations answer at `path` (relative to /api), for a 405's Allow header. */
export function methodsAt(path: string): string[] {
  const methods = new Set<string>();
  for (const op of operations) {
    if (!pathPattern(op.path).test(path)) continue;
    methods.add(op.method.toUpperCase());
    if (op.method === "get") methods.add("HEAD");
  }
  return [...methods];
}

const patterns = new Map<string, RegExp>();
function pathPattern(path: string): RegExp {
  let pattern = patterns.get(path);
  if (!pattern) {
    const source = path
      .split(/(\{\w+\})/)
      .map((part) => (/^\{\w+\}$/.test(part) ? "[^/]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("");
    pattern = new RegExp(`^${source}$`);
    patterns.set(path, pattern);
  }
  return pattern;
}

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const query = Object.entries(op.query ?? {}).map(([name, description]) => ({
      name,
      in: "query",
      required: false,
      description,
      schema: { type: "string" },
    }));
    let requestBody: unknown;
    if (op.body && "multipart" in op.body) {
      requestBody = {
        required: true,
        content: {
          "multipart/form-data": {
            schema: {
              type: "object",
              properties: Object.fromEntries(
                Object.entries(op.body.multipart).map(([k, d]) => [k, { type: "string", description: d }]),
              ),
            },
          },
        },
      };
    } else if (op.body) {
      requestBody = {
        required: true,
        content: { "application/json": { schema: toJsonSchema(op.body as v.GenericSchema, { errorMode: "ignore" }) } },
      };
    }
    (paths[op.path] ??= {})[op.method] = {
      summary: op.summary,
      tags: [op.tag],
      security: op.auth === "public" ? [] : [{ bearerAuth: [] }, { sessionCookie: [] }],
      ...(op.auth !== "public" && op.auth !== "signed-in" ? { description: `Requires the ${op.auth} role.` } : {}),
      parameters: [...params, ...query],
      ...(requestBody ? { requestBody } : {}),
      responses: Object.fromEntries(
        Object.entries(answersOf(op)).map(([code, answer]) => [code, answerObject(Number(code), answer)]),
      ),
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Pathshala API",
      version: "1.0.0",
      description:
        "The JSON API of Pathshala (spec §7). Errors share one shape. A path asked with a method it does not have answers 405 with Allow.",
    },
    servers: [{ url: "/api" }],
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: "http", scheme: "bearer", description: "access_token from /auth/login or /auth/register" },
        sessionCookie: { type: "apiKey", in: "cookie", name: "pathshala_session" },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["success", "error", "message"],
          properties: { success: { const: false }, error: { type: "string" }, message: { type: "string" } },
        },
      },
    },
  };
}
