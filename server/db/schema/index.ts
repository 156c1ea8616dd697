export * from "./enums.ts";
export * from "./users.ts";
export * from "./centers.ts";
export * from "./pricing.ts";
export * from "./payments.ts";
export * from "./content.ts";
export * from "./platform.ts";
export * from "./team.ts";
