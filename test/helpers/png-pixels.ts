import { inflateSync } from 'node:zlib';

/** A decoded image: `data` holds 4 bytes (RGBA) per pixel, row by row. */
export interface Pixels {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * Decodes an 8-bit, non-interlaced PNG in RGB or RGBA (what Chromium writes for screenshots), so
 * a test can look at what was drawn, not only at the image's size.
 */
export function decodePng(png: Uint8Array): Pixels {
  const bytes = Buffer.from(png);
  if (bytes.toString('latin1', 1, 4) !== 'PNG') throw new Error('not a PNG');
  let offset = 8;
  let header: { width: number; height: number; bitDepth: number; colourType: number; interlace: number } | undefined;
  const compressed: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const chunk = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      header = { width: chunk.readUInt32BE(0), height: chunk.readUInt32BE(4), bitDepth: chunk[8]!, colourType: chunk[9]!, interlace: chunk[12]! };
    } else if (type === 'IDAT') compressed.push(chunk);
    else if (type === 'IEND') break;
    offset += 12 + length;
  }
  if (!header) throw new Error('PNG without IHDR');
  const channels = header.colourType === 6 ? 4 : header.colourType === 2 ? 3 : 0;
  if (header.bitDepth !== 8 || channels === 0 || header.interlace !== 0) {
    throw new Error(`unsupported PNG: bit depth ${header.bitDepth}, colour type ${header.colourType}, interlace ${header.interlace}`);
  }
  const { width, height } = header;
  const raw = inflateSync(Buffer.concat(compressed));
  const stride = width * channels;
  const rows = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const left = x >= channels ? rows[y * stride + x - channels]! : 0;
      const up = y > 0 ? rows[(y - 1) * stride + x]! : 0;
      const upLeft = x >= channels && y > 0 ? rows[(y - 1) * stride + x - channels]! : 0;
      rows[y * stride + x] = (line[x]! + predictor(filter, left, up, upLeft)) & 0xff;
    }
  }
  const data = new Uint8Array(width * height * 4);
  for (let pixel = 0; pixel < width * height; pixel++) {
    for (let channel = 0; channel < 3; channel++) data[pixel * 4 + channel] = rows[pixel * channels + channel]!;
    data[pixel * 4 + 3] = channels === 4 ? rows[pixel * channels + 3]! : 255;
  }
  return { width, height, data };
}

function predictor(filter: number, left: number, up: number, upLeft: number): number {
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return left;
    case 2:
      return up;
    case 3:
      return (left + up) >> 1;
    case 4: {
      const estimate = left + up - upLeft;
      const [toLeft, toUp, toUpLeft] = [Math.abs(estimate - left), Math.abs(estimate - up), Math.abs(estimate - upLeft)];
      return toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft;
    }
    default:
      throw new Error(`unknown PNG filter ${filter}`);
  }
}

/** Pixels whose channels differ by more than `spread`: colour, where grey text on white has none. */
export function colouredPixels(image: Pixels, spread = 80): number {
  let count = 0;
  for (let index = 0; index < image.data.length; index += 4) {
    const [r, g, b] = [image.data[index]!, image.data[index + 1]!, image.data[index + 2]!];
    if (Math.max(r, g, b) - Math.min(r, g, b) > spread) count += 1;
  }
  return count;
}
