import { rmSync } from "node:fs";

/** Removes the run's throwaway embedded databases, one per worker (playwright.config.ts). */
export default function teardown() {
  for (const dir of (process.env.E2E_DATA_DIRS ?? "").split(",")) {
    if (dir.includes("pathshala-e2e-")) rmSync(dir, { recursive: true, force: true });
  }
}
