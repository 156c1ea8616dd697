import type { Socket } from "node:net";

/**
 * A server connection's bytes read into one buffer that every connection read this way shares
 * (decision 0011), instead of the buffer node:net allocates for each read: 64 KB from malloc,
 * shrunk to what arrived, wrapped in a new ArrayBuffer and pushed through the socket's Readable.
 * That allocation cost most in a process holding 100,000 institutes' pages, whose malloc heap is
 * many small holes: reading this way served a tenth more home pages with 1,000 institutes and a
 * fifth more with 100,000 (docs/performance.md, 2026-11-25).
 *
 * node:net offers this as the `onread` option of `new net.Socket()`, which a server's own
 * sockets never get. The socket keeps that option under two symbols (kBuffer, kBufferCb) that
 * its reads already honour, and its handle installs the buffer (`useUserBuffer`); both are found
 * on the socket itself, and where a Node release has neither the connection is read through
 * 'data' events as before.
 *
 * One buffer serves every connection because libuv reads one socket at a time and the callback
 * runs to its end before the next read: the bytes are valid only during the call, and whatever
 * must outlive it is copied (see `kept`).
 */
export type BytesListener = (bytes: Buffer) => void;

/** The longest read: what node:net asks libuv for. */
const READ_BYTES = 64 * 1024;
const shared = Buffer.allocUnsafeSlow(READ_BYTES);

interface UserBufferKeys {
  buffer: symbol;
  callback: symbol;
}
type SocketInternals = Socket & Record<symbol, unknown> & { _handle?: { useUserBuffer?: (buffer: Uint8Array) => void } | null };

let keys: UserBufferKeys | null | undefined;

/** The symbols under which this Node keeps a socket's own read buffer; null when it has none. */
function userBufferKeys(socket: SocketInternals): UserBufferKeys | null {
  if (keys !== undefined) return keys;
  const symbols = Object.getOwnPropertySymbols(socket);
  const buffer = symbols.find((s) => s.description === "kBuffer");
  const callback = symbols.find((s) => s.description === "kBufferCb");
  keys = buffer && callback && typeof socket._handle?.useUserBuffer === "function" ? { buffer, callback } : null;
  return keys;
}

/** Whether `socket` is read into the shared buffer (else through 'data' events). */
const sharedReads = new WeakSet<Socket>();

/**
 * Calls `listener` with the bytes of each read of `socket`, a new connection not read yet. The
 * bytes may be overwritten once it returns: copy what is kept (`kept`).
 */
export function readConnection(socket: Socket, listener: BytesListener): void {
  const internals = socket as SocketInternals;
  const found = internals._handle ? userBufferKeys(internals) : null;
  if (!found) {
    socket.on("data", listener);
    return;
  }
  internals[found.buffer] = shared;
  internals[found.callback] = (length: number, buffer: Buffer) => {
    listener(buffer.subarray(0, length));
  };
  internals._handle!.useUserBuffer!(shared);
  sharedReads.add(socket);
}

/**
 * Stops calling `listener`: from now on the socket's reads arrive as node:net's own ('data'
 * events, or the parser of a node:http that consumes the socket). Call it with the socket paused.
 */
export function endConnectionReads(socket: Socket, listener: BytesListener): void {
  if (!sharedReads.has(socket)) {
    socket.removeListener("data", listener);
    return;
  }
  sharedReads.delete(socket);
  // The handle reads into the shared buffer for good; each read is copied into the socket's
  // Readable, as node:net does with its own buffers. node:http's parser, once it consumes the
  // socket, reads into its own buffer and never comes here.
  (socket as SocketInternals)[keys!.callback] = (length: number, buffer: Buffer) => socket.push(kept(buffer.subarray(0, length)));
}

/** A copy of `bytes` that outlives the read (the shared buffer is written again by the next one). */
export function kept(bytes: Buffer): Buffer {
  return Buffer.copyBytesFrom(bytes);
}
