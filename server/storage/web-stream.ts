import type { Readable } from "node:stream";

/**
 * A web stream over a Node stream that only reads when asked.
 * Node's `Readable.toWeb` pushes from 'data' events and can enqueue after the consumer has
 * cancelled (ERR_INVALID_STATE, uncaught — it would take the server down when an upload is
 * refused midway or a download is abandoned); pulling through the async iterator cannot.
 */
export function readableToWeb(stream: Readable): ReadableStream<Uint8Array> {
  // The iterator only listens once first pulled; an error before that (a file removed before it
  // opened, a body never read) must not go unhandled. The iterator still sees it through the
  // stream's errored state and hands it to the reader.
  stream.on("error", () => {});
  const chunks = stream[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { done, value } = await chunks.next();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      async cancel() {
        stream.destroy();
        await chunks.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}
