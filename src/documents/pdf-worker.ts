import { readPdf } from './pdf-document.js';
import { serveOneRead } from './worker-protocol.js';

/** A worker thread that reads one PDF (document-thread.ts starts it and holds it to its bounds). */

/** A one-page PDF with one word: read once when the worker starts, so pdf.js has set itself up before the document comes. */
function warmUpPdf(): Uint8Array {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Length 35 >>\nstream\nBT /F1 12 Tf 20 100 Td (Warm) Tj ET\nendstream',
  ];
  let text = '%PDF-1.4\n';
  const offsets = objects.map((body, index) => {
    const offset = text.length;
    text += `${index + 1} 0 obj\n${body}\nendobj\n`;
    return offset;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(text);
}

await readPdf(warmUpPdf(), { maxExternalMemoryMb: 64 }).catch(() => undefined);
serveOneRead((request) => readPdf(request.body, { pages: request.pages, maxPages: request.maxPages, maxExternalMemoryMb: request.maxExternalMemoryMb }));
