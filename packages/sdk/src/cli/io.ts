import { writeFile } from 'node:fs/promises';

/** Where the CLI writes: stdout for results (so they pipe), stderr for progress and errors. */
export interface CliIo {
  out(text: string): void;
  outBytes(bytes: Uint8Array): Promise<void>;
  err(text: string): void;
  /** True when stderr is a terminal: progress lines are drawn only then. */
  stderrIsTty: boolean;
  stdoutIsTty: boolean;
  /** Rewrites the current stderr line (progress). */
  status(text: string): void;
  writeFile(path: string, bytes: Uint8Array | string): Promise<void>;
}

function writeAll(stream: NodeJS.WriteStream, chunk: Uint8Array | string): Promise<void> {
  return new Promise((resolve, reject) => stream.write(chunk, (error) => (error ? reject(error) : resolve())));
}

export const processIo: CliIo = {
  out: (text) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  outBytes: (bytes) => writeAll(process.stdout, bytes),
  err: (text) => void process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
  stderrIsTty: Boolean(process.stderr.isTTY),
  stdoutIsTty: Boolean(process.stdout.isTTY),
  status: (text) => void process.stderr.write(`\r\x1b[2K${text}`),
  writeFile: (path, bytes) => writeFile(path, bytes),
};
