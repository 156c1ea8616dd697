import { defineConfig } from "vitest/config";

/**
 * Fault files whose subject does not depend on the database (HTTP parsing, the React build, file
 * uploads to disk and S3): when a run covers both databases (scripts/test.ts sets
 * FAULTS_EMBEDDED_ONLY for PGlite), they run once, on PostgreSQL.
 */
const RESTART_TEST = "tests/faults/postgres-restart.test.ts";
const faultsOfNoDatabase = [
  "tests/faults/malformed-requests.test.ts",
  "tests/faults/react-production-build.test.ts",
  "tests/faults/upload-cut.test.ts",
  "tests/faults/upload-cut-s3.test.ts",
];

// Separate from vite.config.ts: tests run the server code directly, without the React Router build.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "app/**/*.test.{ts,tsx}",
            "common/**/*.test.ts",
            "server/**/*.test.ts",
            "tenants/**/*.test.{ts,tsx}",
            "scripts/**/*.test.ts",
          ],
          environment: "node",
          // One module graph per worker, not per file (see the integration project).
          isolate: false,
          // A timeout catches a hang, not slowness: CI's shared VM has run a 400 ms disk test in 7 s.
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/helpers/migrated-template.ts"],
          environment: "node",
          // Each file builds its own app and database from the same server modules: evaluating
          // them once per worker instead of once per file halved the suite (PGlite 500 s → 242 s,
          // PostgreSQL alike) and its CPU. Nothing in the tests mocks modules or stubs globals.
          isolate: false,
          // Hang-catchers, not speed checks: a loaded CI run on a slow day took 2.5 times as long.
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        test: {
          // Real server processes killed and restarted; needs `npm run build` first.
          name: "faults",
          include: ["tests/faults/**/*.test.ts"],
          exclude: [
            ...(process.env.FAULTS_EMBEDDED_ONLY ? faultsOfNoDatabase : []),
            // Restarts the machine's PostgreSQL: scripts/test.ts runs it alone, after the rest.
            ...(process.env.FAULTS_WITHOUT_RESTART ? [RESTART_TEST] : []),
          ],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
