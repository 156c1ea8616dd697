/**
 * The bench's students, made in the database rather than through the API: 5,000 sign-ups would
 * spend minutes hashing passwords and meet the sign-up rate limit (20 an hour from one address).
 * Each is a `users` row (as server/seed/bulk.ts writes them, one shared placeholder hash: nobody
 * signs in with a password) with an API access session on the platform's host 127.0.0.1, made
 * as SessionStore.issueApiTokens makes one (the sha-256 of a random token is the row's id), but
 * lasting the whole test instead of 15 minutes.
 */
import { generateToken, hashToken } from "../../server/auth/tokens.ts";
import { sessions, users } from "../../server/db/schema/index.ts";
import type { Db } from "../../server/db/types.ts";

const BATCH = 1000;

/** `count` students with a session each; their bearer tokens. */
export async function makeCandidates(db: Db, count: number, lifetimeMs: number): Promise<string[]> {
  const tokens: string[] = [];
  const stamp = Date.now().toString(36);
  const expiresAt = new Date(Date.now() + lifetimeMs);
  for (let from = 0; from < count; from += BATCH) {
    const size = Math.min(BATCH, count - from);
    const made = await db
      .insert(users)
      .values(
        Array.from({ length: size }, (_, i) => ({
          name: `Candidate ${from + i + 1}`,
          email: `candidate${from + i + 1}.${stamp}@bench.example`,
          passwordHash: "x",
          role: "student" as const,
        })),
      )
      .returning({ id: users.id });
    const batch = made.map(() => generateToken());
    await db.insert(sessions).values(
      made.map(({ id }, i) => ({
        id: hashToken(batch[i]),
        userId: id,
        kind: "access" as const,
        host: "127.0.0.1",
        familyId: crypto.randomUUID(),
        expiresAt,
        absoluteExpiresAt: expiresAt,
      })),
    );
    tokens.push(...batch);
  }
  return tokens;
}
