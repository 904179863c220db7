import http from 'node:http';
import https from 'node:https';
import { imageSize } from 'image-size';
import {
  ImageFetchError,
  assertPort,
  pickAddress,
  pinnedLookup,
  type FetchAllow,
} from './image-guard';

/**
 * Fetches an image URL once, as WordPress's media library does when it sideloads one: a GET
 * that must answer 200 with an image, whose real type, width and height are read from its
 * bytes. Guarded (`image-guard.ts`), bounded in time (one deadline for every hop and the body)
 * and in size, following a few redirects, each checked like the first URL.
 */

export interface FetchLimits {
  allow: FetchAllow;
  timeoutMs: number;
  maxBytes: number;
}

/** What the media library stores of an image (its attachment metadata). */
export interface FetchedImage {
  width: number;
  height: number;
  mime: string;
  extension: string;
}

/** Redirects followed before giving up (WordPress's `download_url` follows 5; we keep fewer). */
export const MAX_REDIRECTS = 3;

/**
 * The types WordPress sideloads (`media_sideload_image`): image-size's type → MIME type and
 * the extensions a URL may carry for it (the first is the one given to URLs with another).
 */
const TYPES: Record<string, { mime: string; extensions: string[] }> = {
  jpg: { mime: 'image/jpeg', extensions: ['jpg', 'jpeg', 'jpe'] },
  png: { mime: 'image/png', extensions: ['png'] },
  gif: { mime: 'image/gif', extensions: ['gif'] },
  webp: { mime: 'image/webp', extensions: ['webp'] },
  avif: { mime: 'image/avif', extensions: ['avif'] },
};

export const NOT_AN_IMAGE = 'is not a JPEG, PNG, GIF, WebP or AVIF image';

export async function fetchImage(url: string, limits: FetchLimits): Promise<FetchedImage> {
  const deadline = Date.now() + limits.timeoutMs;
  let target = new URL(url);
  for (let hop = 0; ; hop++) {
    const answer = await get(target, limits, deadline);
    if (answer.kind === 'body') return sniff(answer.body, url);
    if (hop >= MAX_REDIRECTS) throw new ImageFetchError('could not be fetched: too many redirects');
    target = nextHop(answer.location, target);
  }
}

function nextHop(location: string, from: URL): URL {
  try {
    return new URL(location, from);
  } catch {
    throw new ImageFetchError('could not be fetched: it redirects to an invalid URL');
  }
}

type Answer = { kind: 'body'; body: Buffer } | { kind: 'redirect'; location: string };

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

async function get(target: URL, limits: FetchLimits, deadline: number): Promise<Answer> {
  if (target.protocol !== 'http:' && target.protocol !== 'https:') {
    throw new ImageFetchError('could not be fetched: it redirects to a non-http(s) URL');
  }
  const pinned = await pickAddress(target.hostname, limits.allow, deadline);
  assertPort(target, pinned);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<Answer>((resolve, reject) => {
    const fail = (error: ImageFetchError) => {
      clearTimeout(timer);
      request.destroy();
      reject(error);
    };
    const request = client.get(target, {
      lookup: pinnedLookup(pinned),
      // One connection per hop: a pooled socket could belong to another check.
      agent: false,
      headers: { accept: 'image/*', 'user-agent': 'calendar-service image fetch' },
    });
    const timer = setTimeout(
      () => fail(new ImageFetchError('could not be fetched in time')),
      Math.max(0, deadline - Date.now()),
    );
    request.on('error', () => fail(new ImageFetchError('could not be fetched')));
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECTS.has(status) && location) {
        clearTimeout(timer);
        response.resume();
        request.destroy();
        return resolve({ kind: 'redirect', location });
      }
      if (status !== 200) return fail(new ImageFetchError(`could not be fetched (HTTP ${status})`));
      const tooLarge = () => fail(new ImageFetchError(`is larger than ${limits.maxBytes} bytes`));
      if (Number(response.headers['content-length'] ?? 0) > limits.maxBytes) return tooLarge();
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxBytes) tooLarge();
        else chunks.push(chunk);
      });
      response.on('error', () => fail(new ImageFetchError('could not be fetched')));
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ kind: 'body', body: Buffer.concat(chunks) });
      });
    });
  });
}

/** The real type and size from the bytes; the URL's extension is kept when it fits the type. */
function sniff(body: Buffer, url: string): FetchedImage {
  let found: ReturnType<typeof imageSize>;
  try {
    found = imageSize(body);
  } catch {
    throw new ImageFetchError(NOT_AN_IMAGE);
  }
  const type = found.type ? TYPES[found.type] : undefined;
  if (!type || !found.width || !found.height) throw new ImageFetchError(NOT_AN_IMAGE);
  const asked = /\.([a-z0-9]{1,8})$/i.exec(new URL(url).pathname)?.[1]?.toLowerCase() ?? '';
  return {
    width: found.width,
    height: found.height,
    mime: type.mime,
    extension: type.extensions.includes(asked) ? asked : type.extensions[0]!,
  };
}
