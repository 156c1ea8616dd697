import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

/** Code that may reach the browser must never import the server. */
const noServerImports = {
  "no-restricted-imports": [
    "error",
    {
      patterns: [
        {
          regex: "^(\\.{1,2}/)+(.*/)?server(/|$)|^~/\\.\\./server(/|$)",
          message: "Only server/** and *.server.ts files may import from server/.",
        },
      ],
    },
  ],
};

/** The server and the client-safe code never reach into the UI's folder. */
const appImport = {
  regex: "^(\\.{1,2}/)+(.*/)?app(/|$)|^~/",
  message: "server/** and common/** never import app/**; what both sides use lives in common/ (#common/…).",
};
const serverImport = {
  regex: "^(\\.{1,2}/)+(.*/)?server(/|$)",
  message: "common/** is client-safe: it never imports server/.",
};

export default tseslint.config(
  {
    ignores: ["build/", "node_modules/", ".react-router/", "data/", "drizzle/", "test-results/", "playwright-report/"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" },
      ],
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
    },
  },
  {
    files: ["app/**/*.{ts,tsx}", "tenants/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ["app/**/*.{ts,tsx}", "tenants/**/*.{ts,tsx}"],
    ignores: ["**/*.server.ts", "**/*.server.tsx"],
    rules: noServerImports,
  },
  { files: ["server/**/*.ts"], rules: { "no-restricted-imports": ["error", { patterns: [appImport] }] } },
  { files: ["common/**/*.ts"], rules: { "no-restricted-imports": ["error", { patterns: [appImport, serverImport] }] } },
);
