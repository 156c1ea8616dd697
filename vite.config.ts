import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { reactRouterHonoServer } from "react-router-hono-server/dev";
import { defineConfig } from "vite";
import { precompressedAssets } from "./scripts/build/precompress.ts";

export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    reactRouterHonoServer({ serverEntryPoint: "server/index.ts" }),
    tailwindcss(),
    reactRouter(),
    precompressedAssets(),
  ],
  resolve: { tsconfigPaths: true },
  build: {
    target: "es2022",
    rolldownOptions: isSsrBuild
      ? undefined
      : { output: { codeSplitting: { groups: [{ name: "icons", test: /node_modules[\\/]lucide-react/ }] } } },
  },
  server: { port: Number(process.env.PORT) || 3000 },
}));
