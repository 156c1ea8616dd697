import { availableParallelism } from "node:os";
import { hash, verify, type Algorithm } from "@node-rs/argon2";
import pLimit from "p-limit";

// OWASP password storage guidance for argon2id: m = 19 MiB, t = 2, p = 1.
// (Algorithm is a const enum, which isolated modules cannot read: 2 is Argon2id.)
const OPTIONS = { algorithm: 2 as Algorithm, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * Each hash takes a core for tens of milliseconds. Half the cores at most: a burst of sign-ins
 * waits its turn instead of starving every other request (and file reads, which share libuv's
 * threads with the hashing).
 */
const hashing = pLimit(Math.max(1, Math.floor(availableParallelism() / 2)));

export function hashPassword(password: string): Promise<string> {
  return hashing(() => hash(password, OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await hashing(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies against a throwaway hash so that an unknown email costs the same time as a wrong
 * password, and response timing does not reveal which accounts exist.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  dummyHash ??= hashPassword("timing-equaliser-not-a-real-password");
  await verifyPassword(await dummyHash, password);
  return false;
}
