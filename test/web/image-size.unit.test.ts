import { describe, expect, it } from 'vitest';
import { imageSize, UnreadableImage } from '../../src/web/image-size.js';

/** A RIFF WebP file holding one chunk of `kind` with `data`. */
function webp(kind: string, data: number[]): Buffer {
  const chunk = Buffer.concat([Buffer.from(kind, 'latin1'), le32(data.length), Buffer.from(data)]);
  return Buffer.concat([Buffer.from('RIFF', 'latin1'), le32(4 + chunk.length), Buffer.from('WEBP', 'latin1'), chunk]);
}

function le32(value: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32LE(value);
  return bytes;
}

/** A JPEG segment: marker and payload with its length. */
function segment(marker: number, payload: number[]): number[] {
  const length = payload.length + 2;
  return [0xff, marker, length >> 8, length & 0xff, ...payload];
}

describe('imageSize: the size an encoded image declares', () => {
  it('reads a PNG from its IHDR chunk', () => {
    const png = Buffer.alloc(33);
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(png);
    png.write('IHDR', 12, 'latin1');
    png.writeUInt32BE(1170, 16);
    png.writeUInt32BE(2532, 20);
    expect(imageSize(png)).toEqual({ width: 1170, height: 2532 });
  });

  it('reads a JPEG from its first frame header, past the segments before it', () => {
    const frame = (marker: number) => segment(marker, [8, 0x02, 0x58, 0x03, 0x20, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]);
    const app0 = segment(0xe0, [...Buffer.from('JFIF\0', 'latin1'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
    const quantisation = segment(0xdb, new Array(65).fill(1));
    for (const marker of [0xc0, 0xc2]) {
      const jpeg = Buffer.from([0xff, 0xd8, ...app0, ...quantisation, ...frame(marker), 0xff, 0xd9]);
      expect(imageSize(jpeg), marker.toString(16)).toEqual({ width: 800, height: 600 });
    }
    // A Huffman table (C4) is not a frame, though its marker sits among them.
    const huffmanFirst = Buffer.from([0xff, 0xd8, ...segment(0xc4, [0, ...new Array(16).fill(0)]), ...frame(0xc0)]);
    expect(imageSize(huffmanFirst)).toEqual({ width: 800, height: 600 });
  });

  it('reads lossy, lossless and extended WebP', () => {
    // VP8: frame tag, start code, 14-bit width and height (the top two bits are a scale).
    expect(imageSize(webp('VP8 ', [0x50, 0x2a, 0x00, 0x9d, 0x01, 0x2a, 0x20, 0x03 | 0x40, 0x58, 0x02, 0, 0]))).toEqual({ width: 800, height: 600 });
    // VP8L: signature, then width - 1 and height - 1 in 14 bits each.
    const bits = (1199 | (899 << 14)) >>> 0;
    expect(imageSize(webp('VP8L', [0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, bits >>> 24]))).toEqual({ width: 1200, height: 900 });
    // VP8X: flags, three reserved bytes, then canvas width - 1 and height - 1 in 24 bits each.
    expect(imageSize(webp('VP8X', [0x10, 0, 0, 0, 0x91, 0x04, 0x00, 0xe3, 0x09, 0x00]))).toEqual({ width: 1170, height: 2532 });
  });

  it('refuses bytes that are no image it knows, or are cut before the size', () => {
    for (const bytes of [Buffer.from('GIF89a........'), Buffer.alloc(0), Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]), webp('VP8 ', [0, 0, 0])]) {
      expect(() => imageSize(bytes)).toThrow(UnreadableImage);
    }
  });
});
