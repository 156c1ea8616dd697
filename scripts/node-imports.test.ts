import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The command-line scripts (db:seed, db:migrate, create-admin, backups, benchmarks) run on Node
 * itself, which strips types but neither guesses file extensions the way Vite does nor compiles
 * JSX. Every module they reach, including the client-safe code under common/, must import relative
 * files by full name, and none may be a .tsx file.
 */
const root = resolve(import.meta.dirname, "..");
const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s[^"']*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

function extensionlessImports(entries: string[]): string[] {
  const seen = new Set<string>();
  const problems: string[] = [];
  const queue = [...entries];
  while (queue.length) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(SPECIFIER)) {
      const specifier = match[1] ?? match[2];
      if (!specifier.startsWith(".")) continue;
      if (!/\.(ts|tsx|js|mjs|json)$/.test(specifier)) {
        problems.push(`${relative(root, file)} imports "${specifier}"`);
        continue;
      }
      if (specifier.endsWith(".tsx")) problems.push(`${relative(root, file)} imports JSX "${specifier}"`);
      else if (specifier.endsWith(".ts")) queue.push(resolve(dirname(file), specifier));
    }
  }
  return problems;
}

describe("modules run by Node directly", () => {
  it("import relative files with their extensions", () => {
    const entries = sources(join(root, "scripts"));
    expect(extensionlessImports(entries)).toEqual([]);
  });
});
