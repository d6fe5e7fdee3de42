/**
 * The pixel size an encoded image declares in its own header: what a screenshot's answer
 * reports, read from the bytes sent rather than computed from what was asked for, so the two
 * cannot disagree. PNG, JPEG and WebP (lossy, lossless and extended), the formats Chromium
 * encodes screenshots in.
 */
export interface ImageSize {
  width: number;
  height: number;
}

/** The bytes are not an image of a format read here, or are cut short. */
export class UnreadableImage extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableImage';
  }
}

export function imageSize(bytes: Uint8Array): ImageSize {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.length >= 24 && view.readUInt32BE(0) === 0x89504e47 && view.toString('latin1', 12, 16) === 'IHDR') {
    return { width: view.readUInt32BE(16), height: view.readUInt32BE(20) };
  }
  if (view.length >= 4 && view[0] === 0xff && view[1] === 0xd8) return jpegSize(view);
  if (view.length >= 16 && view.toString('latin1', 0, 4) === 'RIFF' && view.toString('latin1', 8, 12) === 'WEBP') return webpSize(view);
  throw new UnreadableImage('not a PNG, JPEG or WebP image');
}

/** Start-of-frame markers (baseline, progressive, lossless, arithmetic...): all but DHT (C4), JPG (C8) and DAC (CC). */
const START_OF_FRAME = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** The first frame header's size, found by walking the segments that come before it. */
function jpegSize(view: Buffer): ImageSize {
  let at = 2;
  while (at + 4 <= view.length) {
    if (view[at] !== 0xff) throw new UnreadableImage('a JPEG segment does not start with a marker');
    const marker = view[at + 1]!;
    // Fill bytes, and the markers that stand alone (RSTn, TEM), carry no length.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = view.readUInt16BE(at + 2);
    if (START_OF_FRAME.has(marker)) {
      if (at + 9 > view.length) break;
      return { width: view.readUInt16BE(at + 7), height: view.readUInt16BE(at + 5) };
    }
    at += 2 + length;
  }
  throw new UnreadableImage('a JPEG without a frame header');
}

/** The first chunk says the kind: VP8X (extended) and VP8L (lossless) carry the size in bits, VP8 (lossy) in its key frame. */
function webpSize(view: Buffer): ImageSize {
  const chunk = view.toString('latin1', 12, 16);
  if (chunk === 'VP8X' && view.length >= 30) {
    return { width: 1 + view.readUIntLE(24, 3), height: 1 + view.readUIntLE(27, 3) };
  }
  if (chunk === 'VP8L' && view.length >= 25 && view[20] === 0x2f) {
    const bits = view.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ' && view.length >= 30 && view.readUIntBE(23, 3) === 0x9d012a) {
    return { width: view.readUInt16LE(26) & 0x3fff, height: view.readUInt16LE(28) & 0x3fff };
  }
  throw new UnreadableImage('a WebP image without a VP8, VP8L or VP8X header');
}
