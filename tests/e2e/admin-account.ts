/** The platform admin the e2e server is started with (made by the built `build/cli/create-admin.js`, as in production). */
export const E2E_ADMIN = { email: "e2e-admin@example.com", password: "e2e-admin-password-2025", name: "E2E Admin" };
