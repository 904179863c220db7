import { requestLog } from '../http/request-info';

/**
 * A response body from an export's text chunks (`src/transfer/export-stream.ts`): a Web
 * `ReadableStream` (Yoga's responses are fetch `Response`s) that asks for the next chunk only
 * when the server reads one — which it does once the socket has taken the last (it waits for
 * `drain`) — so a slow client holds back the reading and rendering instead of the server
 * buffering the whole export. A client that goes away cancels the stream, which ends the
 * generator (and its database reads).
 */
export function textStream(
  Stream: typeof ReadableStream,
  chunks: AsyncGenerator<string>,
  what: string,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new Stream<Uint8Array>(
    {
      async pull(controller) {
        try {
          for (;;) {
            const next = await chunks.next();
            if (next.done) {
              controller.close();
              return;
            }
            if (next.value !== '') {
              controller.enqueue(encoder.encode(next.value));
              return;
            }
          }
        } catch (error) {
          // The status line is sent: the client sees a cut body, the log says why.
          requestLog()?.error({ err: error }, `${what} failed while streaming`);
          controller.error(error);
        }
      },
      async cancel() {
        await chunks.return(undefined);
      },
    },
    // Nothing read ahead: a chunk is made when the server asks for it.
    { highWaterMark: 0 },
  );
}
