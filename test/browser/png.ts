import { inflateSync } from 'node:zlib';

/**
 * A minimal PNG decoder for screenshot checks: 8-bit greyscale, RGB or RGBA, not interlaced
 * (what Chromium writes). Enough to read the size and look at the pixels, without a dependency.
 */

export interface DecodedPng {
  width: number;
  height: number;
  /** Bytes per pixel: 1 (grey), 3 (RGB) or 4 (RGBA). */
  channels: number;
  /** Unfiltered rows, `width * channels` bytes each. */
  pixels: Buffer;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/** Width and height from the IHDR chunk, without decoding the pixels. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG file');
  if (png.toString('latin1', 12, 16) !== 'IHDR') throw new Error('PNG without IHDR first');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

export function decodePng(png: Buffer): DecodedPng {
  const { width, height } = pngSize(png);
  const bitDepth = png[24]!;
  const colourType = png[25]!;
  const interlace = png[28]!;
  const channels = CHANNELS[colourType];
  if (bitDepth !== 8 || channels === undefined || interlace !== 0) {
    throw new Error(
      `unsupported PNG: depth ${bitDepth}, colour type ${colourType}, interlace ${interlace}`,
    );
  }
  const data: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT') data.push(png.subarray(at + 8, at + 8 + length));
    if (type === 'IEND') break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? pixels[out + x - channels]! : 0;
      const b = y > 0 ? pixels[out - stride + x]! : 0;
      const c = x >= channels && y > 0 ? pixels[out - stride + x - channels]! : 0;
      const value = line[x]!;
      let decoded: number;
      switch (filter) {
        case 0:
          decoded = value;
          break;
        case 1:
          decoded = value + a;
          break;
        case 2:
          decoded = value + b;
          break;
        case 3:
          decoded = value + ((a + b) >> 1);
          break;
        case 4:
          decoded = value + paeth(a, b, c);
          break;
        default:
          throw new Error(`bad PNG filter ${filter} on row ${y}`);
      }
      pixels[out + x] = decoded & 0xff;
    }
  }
  return { width, height, channels, pixels };
}

/** How many distinct colours the image has, and the share of the commonest one (0–1). */
export function colourStats(png: DecodedPng): { distinct: number; dominantShare: number } {
  const counts = new Map<string, number>();
  const { pixels, channels } = png;
  for (let at = 0; at < pixels.length; at += channels) {
    const key = pixels.subarray(at, at + Math.min(channels, 3)).toString('hex');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const total = pixels.length / channels;
  return { distinct: counts.size, dominantShare: Math.max(...counts.values()) / total };
}

/** Whether a pixel within `tolerance` of the RGB colour `hex` (`#1f5fbf`) is in the image. */
export function hasColour(png: DecodedPng, hex: string, tolerance = 2): boolean {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const { pixels, channels } = png;
  if (channels < 3) return false;
  for (let at = 0; at < pixels.length; at += channels) {
    if (
      Math.abs(pixels[at]! - r!) <= tolerance &&
      Math.abs(pixels[at + 1]! - g!) <= tolerance &&
      Math.abs(pixels[at + 2]! - b!) <= tolerance
    ) {
      return true;
    }
  }
  return false;
}
