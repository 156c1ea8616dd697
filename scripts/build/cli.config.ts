import { defineConfig } from "vite";

/**
 * The production image's command-line tools, built like the server (`npm run build`) so the image
 * carries build/ and no sources: node build/cli/<name>.js.
 */
const TOOLS = ["migrate", "seed", "create-admin", "db-backup", "db-restore"];

export default defineConfig({
  publicDir: false,
  build: {
    ssr: true,
    outDir: "build/cli",
    emptyOutDir: true,
    target: "node24",
    rolldownOptions: {
      input: Object.fromEntries(TOOLS.map((name) => [name, `scripts/${name}.ts`])),
      output: { entryFileNames: "[name].js" },
    },
  },
});
