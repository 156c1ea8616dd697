import { defineConfig } from "vite";

/**
 * The server's worker threads, built beside it (`npm run build`): build/workers/parsing.js is the
 * parsing worker (server/parsing/worker.ts) that server/parsing/bounded-worker.ts starts.
 */
export default defineConfig({
  publicDir: false,
  build: {
    ssr: true,
    outDir: "build/workers",
    emptyOutDir: true,
    target: "node24",
    rolldownOptions: {
      input: { parsing: "server/parsing/worker.ts" },
      output: { entryFileNames: "[name].js" },
    },
  },
});
