import { rmSync } from "node:fs";

/** Removes the run's throwaway embedded database. */
export default function teardown() {
  const dir = process.env.E2E_DATA_DIR;
  if (dir?.includes("pathshala-e2e-")) rmSync(dir, { recursive: true, force: true });
}
