import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * The server's floors, top first, as "The server's layers" in docs/architecture.md lists them. An entry is
 * a folder of server/ (with everything under it, unless a deeper folder has an entry of its own) or a file
 * at server/'s root. A module imports from its own floor or the floors below it, never from one above, and
 * no modules import each other in a cycle, type-only imports included: the docs make no exception for them.
 * Within a floor, imports may run either way; the cycle check keeps two modules from importing each other.
 */
const FLOORS: readonly (readonly string[])[] = [
  ["main/", "index.ts"],
  ["app.ts"],
  ["pages/", "api/", "seed/"],
  ["middleware/"],
  ["services/"],
  ["messages/", "invoices/", "payments/", "storage/"],
  ["auth/", "caches/"],
  ["formats/", "http/", "runtime/"],
  ["db/", "db/schema/"],
];
/** The doc's ground floor: client-safe code outside server/, which any floor may import. */
const BELOW_SERVER = ["common/"];

const serverDir = fileURLToPath(new URL(".", import.meta.url));
const rootDir = resolve(serverDir, "..");
const DOC = "docs/architecture.md";
const FIX = `add it to FLOORS in server/layers.test.ts and to "The server's layers" in ${DOC}`;

/** A path inside server/, with forward slashes: "services/wiring/money.ts". */
const inServer = (path: string) => relative(serverDir, path).split(sep).join("/");
const isInServer = (path: string) => !relative(serverDir, path).startsWith("..");

/** Height of each entry: the ground floor is 0. */
const heightOf = new Map(FLOORS.flatMap((entries, i) => entries.map((entry) => [entry, FLOORS.length - 1 - i])));

/** The entry a server/ file belongs to: its deepest folder with an entry, or its own name at the root. */
function entryOf(file: string): string | undefined {
  let best: string | undefined;
  for (const entry of heightOf.keys()) {
    const matches = entry.endsWith("/") ? file.startsWith(entry) : file === entry;
    if (matches && (!best || entry.length > best.length)) best = entry;
  }
  return best;
}

/** The package's subpath imports ("#common/*": "./common/*"), as Node and TypeScript resolve them. */
const packageImports = Object.entries(
  (JSON.parse(readFileSync(join(rootDir, "package.json"), "utf8")) as { imports?: Record<string, string> }).imports ??
    {},
);

/** The absolute path a specifier names, or undefined for a package; a missing file is reported. */
function resolveSpecifier(from: string, specifier: string): string | null | undefined {
  let target: string;
  if (specifier.startsWith(".")) target = resolve(dirname(from), specifier);
  else if (specifier.startsWith("#")) {
    const alias = packageImports.find(([key]) =>
      key.endsWith("/*") ? specifier.startsWith(key.slice(0, -1)) : specifier === key,
    );
    if (!alias) return null;
    const [key, value] = alias;
    target = resolve(rootDir, key.endsWith("/*") ? value.replace("*", specifier.slice(key.length - 1)) : value);
  } else return undefined;
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`, join(target, "index.ts")])
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return null;
}

interface Import {
  specifier: string;
  /** Where the specifier starts in the file's text. */
  pos: number;
}

/**
 * Static imports: import/export … from "…", import("…") with a literal (in code or in a type) and require("…").
 * ts.preProcessFile reads them without building the syntax tree, a fraction of a full parse's time.
 */
const importsOf = (text: string): Import[] =>
  ts.preProcessFile(text, true, true).importedFiles.map(({ fileName, pos }) => ({ specifier: fileName, pos }));

/** Whether the import whose specifier starts at pos brings only types (import type, export type, import("…") in a type). */
function isTypeOnly(path: string, pos: number): boolean {
  const source = ts.createSourceFile(path, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const find = (node: ts.Node): ts.Node | undefined =>
    node.getStart(source) === pos && ts.isStringLiteralLike(node) ? node : ts.forEachChild(node, find);
  for (let node = find(source); node; node = node.parent) {
    if (ts.isImportDeclaration(node)) return node.importClause?.phaseModifier === ts.SyntaxKind.TypeKeyword;
    if (ts.isExportDeclaration(node)) return node.isTypeOnly;
    if (ts.isImportTypeNode(node)) return true;
  }
  return false;
}

interface Edge {
  from: string;
  to: string;
  specifier: string;
  pos: number;
  line: number;
}

function readServer() {
  const files = readdirSync(serverDir, { recursive: true, encoding: "utf8" })
    .map((name) => name.split(sep).join("/"))
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".d.ts"))
    .sort();
  const edges: Edge[] = [];
  const unresolved: string[] = [];
  for (const from of files) {
    const path = join(serverDir, from);
    const text = readFileSync(path, "utf8");
    for (const { specifier, pos } of importsOf(text)) {
      const line = text.slice(0, pos).split("\n").length;
      const target = resolveSpecifier(path, specifier);
      if (target === null) unresolved.push(`server/${from}:${line} imports "${specifier}", which names no file`);
      else if (target && isInServer(target)) edges.push({ from, to: inServer(target), specifier, pos, line });
    }
  }
  return { files, edges, unresolved };
}

/** Strongly connected components of more than one file, and files that import themselves (Tarjan). */
function cyclesOf(files: readonly string[], edges: readonly Edge[]): string[][] {
  const next = new Map(files.map((file) => [file, [] as string[]]));
  for (const { from, to } of edges) next.get(from)?.push(to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || next.get(file)!.includes(file)) components.push(component.sort());
  };
  for (const file of files) if (!index.has(file)) connect(file);
  return components;
}

/** One shortest way round a component, from its first file back to it: "a.ts → b.ts → a.ts". */
function wayRound(component: readonly string[], edges: readonly Edge[]): string {
  const members = new Set(component);
  const start = component[0];
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const { from, to } of edges) {
      if (from !== file || !members.has(to) || cameFrom.has(to)) continue;
      cameFrom.set(to, file);
      if (to === start) {
        const way = [start];
        for (let at = file; at !== start; at = cameFrom.get(at)!) way.unshift(at);
        return [start, ...way].map((name) => `server/${name}`).join(" → ");
      }
      queue.push(to);
    }
  }
  return component.join(", ");
}

describe("the server's layers", () => {
  const { files, edges, unresolved } = readServer();
  const floorName = (entry: string) => FLOORS.find((entries) => entries.includes(entry))!.join(" · ");

  it("reads server/'s modules and their imports", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(edges.length).toBeGreaterThan(files.length);
    expect(unresolved, "imports this test cannot follow to a file").toEqual([]);
  });

  it("puts every module of server/ on a floor", () => {
    const homeless = [...new Set(files.filter((file) => !entryOf(file)).map((file) => file.replace(/\/.*/, "/")))];
    expect(
      homeless.map((entry) => `server/${entry} is on no floor: ${FIX}`),
      "folders or root files missing from the layer table",
    ).toEqual([]);
  });

  it("has no import that runs up a floor", () => {
    const upward = edges.flatMap(({ from, to, specifier, pos, line }) => {
      const [fromEntry, toEntry] = [entryOf(from), entryOf(to)];
      if (!fromEntry || !toEntry || heightOf.get(toEntry)! <= heightOf.get(fromEntry)!) return [];
      return [
        `server/${from}:${line} ${isTypeOnly(join(serverDir, from), pos) ? "imports only types from" : "imports"} "${specifier}" (server/${to}): ` +
          `${fromEntry} on floor "${floorName(fromEntry)}" reaches up to ${toEntry} on floor "${floorName(toEntry)}"`,
      ];
    });
    expect(
      upward,
      `imports that run up a floor (${DOC}, "The server's layers"): move the shared part down to the lower floor`,
    ).toEqual([]);
  });

  it("has no import cycle, type-only imports included", () => {
    const cycles = cyclesOf(files, edges).map((component) =>
      component.length === 1
        ? `server/${component[0]} imports itself`
        : `${component.length} modules import each other, one way round: ${wayRound(component, edges)}` +
          (component.length <= 12 ? ` (all: ${component.map((file) => `server/${file}`).join(", ")})` : ""),
    );
    expect(cycles, `import cycles among server/'s modules (${DOC}: no two modules import each other)`).toEqual([]);
  });

  it("keeps the table in step with docs/architecture.md", () => {
    const doc = readFileSync(join(rootDir, DOC), "utf8");
    const block = /^## The server's layers\n[\s\S]*?^```\n([\s\S]*?)^```/m.exec(doc)?.[1] ?? "";
    const floors = block
      .split("\n")
      .filter((line) => /^\S/.test(line))
      .map((line) => line.split(/ {2,}/)[0].trim().split(" · "));
    expect(floors, `the floors listed in ${DOC}, top first, and FLOORS in server/layers.test.ts`).toEqual([
      ...FLOORS,
      BELOW_SERVER,
    ]);
  });
});
