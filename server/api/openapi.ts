import { toJsonSchema } from "@valibot/to-json-schema";
import type * as v from "valibot";

/**
 * The API's public contract (spec §7) as an OpenAPI 3.1 document, served at /api/openapi.json.
 * Routers describe their operations next to their code with `describe`; request bodies come
 * from the same valibot schemas the handlers validate with. A test checks that every mounted
 * /api route is described here.
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
  responses: Record<number, string>;
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

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const params = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: "path", required: true, schema: { type: "string" } }));
    const query = Object.entries(op.query ?? {}).map(([name, description]) => ({ name, in: "query", required: false, description, schema: { type: "string" } }));
    let requestBody: unknown;
    if (op.body && "multipart" in op.body) {
      requestBody = {
        required: true,
        content: {
          "multipart/form-data": {
            schema: { type: "object", properties: Object.fromEntries(Object.entries(op.body.multipart).map(([k, d]) => [k, { type: "string", description: d }])) },
          },
        },
      };
    } else if (op.body) {
      requestBody = { required: true, content: { "application/json": { schema: toJsonSchema(op.body as v.GenericSchema, { errorMode: "ignore" }) } } };
    }
    (paths[op.path] ??= {})[op.method] = {
      summary: op.summary,
      tags: [op.tag],
      security: op.auth === "public" ? [] : [{ bearerAuth: [] }, { sessionCookie: [] }],
      ...(op.auth !== "public" && op.auth !== "signed-in" ? { description: `Requires the ${op.auth} role.` } : {}),
      parameters: [...params, ...query],
      ...(requestBody ? { requestBody } : {}),
      responses: Object.fromEntries(
        Object.entries(op.responses).map(([code, description]) => [
          code,
          Number(code) >= 400 ? { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } } : { description },
        ]),
      ),
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: "Pathshala API", version: "1.0.0", description: "The JSON API of Pathshala (spec §7). Errors share one shape." },
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
