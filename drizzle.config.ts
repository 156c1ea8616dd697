import { defineConfig } from "drizzle-kit";

// Migrations are generated from the schema and applied by the app at start (server/db/migrate.ts).
export default defineConfig({
  dialect: "postgresql",
  schema: "./server/db/schema/index.ts",
  out: "./drizzle",
  casing: "snake_case",
});
