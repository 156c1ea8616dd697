import { defineConfig } from "vite";

/**
 * The server's worker threads, built beside it (`npm run build`): build/workers/parsing.js is the
 * parsing worker (server/services/parsing/worker.ts) that server/services/parsing/bounded-worker.ts starts.
 */
export default defineConfig({
  publicDir: false,
  build: {
    ssr: true,
    outDir: "build/workers",
    emptyOutDir: true,
    target: "node24",
    rolldownOptions: {
      input: { parsing: "server/services/parsing/worker.ts" },
      output: { entryFileNames: "[name].js" },
    },
  },
});
