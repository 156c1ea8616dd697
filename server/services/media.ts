import type { SessionUser } from "../auth/sessions.ts";
import { HttpError, badRequest } from "../http/errors.ts";
import type { Storage } from "../storage/types.ts";
import { EXTENSION, IMAGE_TYPES, MIME, SNIFF_BYTES, sniff, type SniffedType } from "../storage/magic.ts";
import type { AccountService } from "./accounts.ts";

/**
 * Prefixes of objects anyone who knows the key may fetch (their keys are random); paid files never
 * live here. Question images are served only on their institute's domain (questionImageServedOn).
 */
export const PUBLIC_MEDIA_PREFIXES = ["avatars/", "thumbnails/", "logos/", "question-images/"] as const;
export type PublicMediaPrefix = (typeof PUBLIC_MEDIA_PREFIXES)[number];

export const IMAGE_TYPE_MESSAGE = "Please upload a PNG, JPEG or WebP image.";

export function mediaMimeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf(".") + 1);
  const type = (Object.keys(EXTENSION) as SniffedType[]).find((t) => EXTENSION[t] === ext);
  return type ? MIME[type] : "application/octet-stream";
}

/** Public images (avatars, thumbnails, logos): type-checked by their bytes, stored under server-made keys. */
export class MediaService {
  private readonly storage: Storage;
  private readonly accounts: AccountService;

  constructor(storage: Storage, accounts: AccountService) {
    this.storage = storage;
    this.accounts = accounts;
  }

  async storeImage(prefix: PublicMediaPrefix, file: Blob, maxBytes: number, tooLargeMessage: string): Promise<string> {
    if (file.size > maxBytes) throw new HttpError(413, tooLargeMessage);
    const type = sniff(new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer()));
    if (!type || !IMAGE_TYPES.includes(type)) throw badRequest(IMAGE_TYPE_MESSAGE);
    const key = `${prefix}${crypto.randomUUID()}.${EXTENSION[type]}`;
    await this.storage.put(key, file.stream(), { maxBytes, contentType: MIME[type] });
    return key;
  }

  async replaceAvatar(userId: string, file: Blob, maxBytes: number): Promise<SessionUser> {
    const key = await this.storeImage("avatars/", file, maxBytes, "The avatar must be 2 MB or smaller.");
    try {
      const { previous, user } = await this.accounts.setAvatarKey(userId, key);
      if (previous) await this.storage.delete(previous).catch(() => {});
      return user;
    } catch (error) {
      await this.storage.delete(key).catch(() => {});
      throw error;
    }
  }

  /** Bytes of a public object, or null (unknown key or not a public prefix). */
  async open(key: string) {
    if (!isPublicKey(key)) return null;
    return this.storage.get(key);
  }

  /** Whether a public object is stored under `key`, without reading it (a revalidation's 304). */
  async exists(key: string): Promise<boolean> {
    return isPublicKey(key) && (await this.storage.stat(key)) !== null;
  }
}

function isPublicKey(key: string): boolean {
  return PUBLIC_MEDIA_PREFIXES.some((p) => key.startsWith(p)) && !key.includes("..");
}
