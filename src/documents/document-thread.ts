import { extname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { build, type Plugin } from 'esbuild';
import { DocumentParseTimeout, DocumentReadAborted, DocumentTooLarge } from './document-errors.js';
import type { DocumentReading } from './reading.js';
import { fromWorkerError, type WorkerAnswer, type WorkerKind, type WorkerRequest } from './worker-protocol.js';

/**
 * Each document is parsed in a worker thread of its own, used once and then terminated, so
 * nothing of one document outlives its read. The thread is bounded: its JavaScript heap by
 * `resourceLimits` (past it V8 stops the thread, not the process), its time by a deadline at
 * which it is terminated wherever it is, and the caller's abort signal likewise. The server's
 * event loop only waits for a message.
 *
 * Starting a thread and loading pdf.js or mammoth in it costs about 100-300 ms, more than
 * reading most documents; `createWarmWorkers` keeps one thread of each kind started ahead.
 *
 * A worker's code is its entry module bundled by esbuild (once per process, tens of ms), with
 * packages left as imports of their files: the same code runs from the TypeScript sources
 * (tsx, vitest) and from the compiled build, and Node 20 cannot load `.ts` in a worker.
 */

export interface ThreadBounds {
  /** The read is stopped after this long, counted from when the worker is handed the document. */
  timeoutMs: number;
  /** The worker's JavaScript heap (V8's old generation), in MB. */
  maxHeapMb: number;
  signal?: AbortSignal;
}

/** Where a read's worker comes from. */
export interface WorkerSource {
  take(kind: WorkerKind, maxHeapMb: number): Promise<Worker>;
  /** A read with a worker of this kind ended. */
  finished?(kind: WorkerKind, maxHeapMb: number): void;
}

/** The young generation is kept small: a parse's garbage is short-lived, and its size adds to the heap bound. */
const YOUNG_GENERATION_MB = 16;

/** Starts a worker for every read. */
export const freshWorkers: WorkerSource = { take: startWorker };

/**
 * Keeps one started worker of each kind and heap bound waiting (each read of a kind takes it,
 * and starts the next when it is over), so a read skips the thread's start.
 * The waiting workers do not keep the process alive; `close` ends them.
 */
export function createWarmWorkers(): WorkerSource & { close(): Promise<void> } {
  const waiting = new Map<string, Promise<Worker>>();
  let closed = false;
  const startSpare = (kind: WorkerKind, maxHeapMb: number) => {
    const key = `${kind}:${maxHeapMb}`;
    const forget = () => {
      if (waiting.get(key) === spare) waiting.delete(key);
    };
    const spare: Promise<Worker> = startWorker(kind, maxHeapMb).then((worker) => {
      worker.unref();
      worker.once('exit', forget);
      return worker;
    });
    spare.catch(forget);
    waiting.set(key, spare);
  };
  return {
    async take(kind, maxHeapMb) {
      if (closed) return startWorker(kind, maxHeapMb);
      const key = `${kind}:${maxHeapMb}`;
      const spare = waiting.get(key);
      waiting.delete(key);
      const worker = spare ? await spare.catch(() => null) : null;
      // A spare that ended while it waited (it never should) is replaced by a fresh start.
      if (!worker || worker.threadId < 0) return startWorker(kind, maxHeapMb);
      worker.ref();
      return worker;
    },
    // The next worker starts once this read is over, not beside it: on a small machine the two would share the cores.
    finished(kind, maxHeapMb) {
      if (!closed && !waiting.has(`${kind}:${maxHeapMb}`)) startSpare(kind, maxHeapMb);
    },
    async close() {
      closed = true;
      const spares = [...waiting.values()];
      waiting.clear();
      await Promise.all(spares.map((spare) => spare.then((worker) => worker.terminate()).catch(() => undefined)));
    },
  };
}

async function startWorker(kind: WorkerKind, maxHeapMb: number): Promise<Worker> {
  const source = await workerSource(kind);
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(source)}`), {
    resourceLimits: { maxOldGenerationSizeMb: maxHeapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB, stackSizeMb: 4 },
    // pdf.js and mammoth may print warnings; the server's log is structured, so they are dropped.
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  // A worker that fails while it waits is noticed when it is used ('exit' before an answer).
  worker.on('error', () => undefined);
  return worker;
}

/** Sends `request` to `worker` and waits, within the bounds, for its one answer; the worker is terminated either way. */
export function readInThread(worker: Worker, request: WorkerRequest, bounds: ThreadBounds): Promise<DocumentReading> {
  return new Promise<DocumentReading>((resolve, reject) => {
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      bounds.signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      void worker.terminate();
      outcome();
    };
    const onMessage = (answer: WorkerAnswer) => settle(() => (answer.ok ? resolve(answer.reading) : reject(fromWorkerError(answer.error))));
    const onError = (error: Error & { code?: string }) =>
      settle(() =>
        reject(
          error.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new DocumentTooLarge('memoryMb', bounds.maxHeapMb, `Reading the ${request.kind === 'pdf' ? 'PDF' : 'DOCX'} document needed more than its ${bounds.maxHeapMb} MB of memory`)
            : error,
        ),
      );
    const onExit = (code: number) => settle(() => reject(new Error(`The document worker stopped (exit code ${code}) without answering`)));
    const onAbort = () => settle(() => reject(new DocumentReadAborted({ cause: bounds.signal?.reason })));
    const deadline = setTimeout(() => settle(() => reject(new DocumentParseTimeout(request.kind, bounds.timeoutMs))), bounds.timeoutMs);
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    bounds.signal?.addEventListener('abort', onAbort, { once: true });
    if (bounds.signal?.aborted) return onAbort();
    // A worker that ended while it waited (a spare) answers nothing: its exit has been seen already.
    if (worker.threadId < 0) return onExit(-1);
    worker.postMessage(request);
  });
}

/** The worker entries next to this module: `.ts` under tsx and vitest, `.js` once compiled. */
const entry = (kind: WorkerKind) => fileURLToPath(new URL(`./${kind}-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url));

const bundles = new Map<WorkerKind, Promise<string>>();

function workerSource(kind: WorkerKind): Promise<string> {
  let bundle = bundles.get(kind);
  if (!bundle) {
    bundle = bundleWorker(entry(kind));
    bundles.set(kind, bundle);
    bundle.catch(() => bundles.delete(kind));
  }
  return bundle;
}

async function bundleWorker(entryFile: string): Promise<string> {
  const result = await build({
    entryPoints: [entryFile],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    plugins: [packagesByFileUrl],
    logLevel: 'silent',
    legalComments: 'none',
  });
  const code = result.outputFiles[0]?.text;
  if (!code) throw new Error(`esbuild produced no output for ${entryFile}`);
  return code;
}

const RESOLVING = Symbol('resolving');

/**
 * Packages stay imports, by the absolute URL of the file Node would load: a `data:` module has
 * no folder to resolve a package name from.
 */
const packagesByFileUrl: Plugin = {
  name: 'packages-by-file-url',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.pluginData === RESOLVING || args.path.startsWith('node:')) return undefined;
      const resolved = await builder.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: RESOLVING });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: resolved.external ? args.path : pathToFileURL(resolved.path).href, external: true };
    });
  },
};
