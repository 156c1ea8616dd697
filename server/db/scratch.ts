import pg from "pg";

/** Runs one statement on the server named by `url` (creating or dropping a database). */
export async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the server `url` points at. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * A fresh, empty database `name` on the PostgreSQL server `serverUrl` points at (for tests and
 * benchmarks): its URL, and how to drop it (connections still open are ended).
 */
export async function createScratchDatabase(
  serverUrl: string,
  name: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  await adminQuery(serverUrl, `create database ${name}`);
  return {
    url: withDatabase(serverUrl, name),
    drop: () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`),
  };
}
