/** Old path of the PDF options (now in output-options.ts), kept while other branches still import from it. */
export { pdfOptionFields, pdfOptionsSchema, type PdfOptions } from './output-options.js';
