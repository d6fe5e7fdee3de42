import { readDocx } from './docx-document.js';
import { serveOneRead } from './worker-protocol.js';

/** A worker thread that reads one DOCX (document-thread.ts starts it and holds it to its bounds). */
serveOneRead((request) => readDocx(request.body, { maxUnzippedBytes: request.maxUnzippedBytes }));
