import { defineConfig } from "vitest/config";

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
          // A timeout catches a hang, not slowness: CI's shared VM has run a 400 ms disk test in 7 s.
          testTimeout: 15_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // Real server processes killed and restarted; needs `npm run build` first.
          name: "faults",
          include: ["tests/faults/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
