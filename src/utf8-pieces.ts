/** Pieces of text as one UTF-8 buffer, each written straight into it: no joined string on the way. */
export function utf8(pieces: string[]): Buffer {
  const buffer = Buffer.allocUnsafe(pieces.reduce((bytes, piece) => bytes + Buffer.byteLength(piece), 0));
  let offset = 0;
  for (const piece of pieces) offset += buffer.write(piece, offset);
  return buffer;
}
