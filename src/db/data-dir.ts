import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';

/**
 * The data directory holds the database (sessions, key hashes, the ledger), stored files and the
 * signing secret: nobody but the service's own user may enter it. Created 0700; an existing one
 * that others can enter is tightened.
 */
export function ensurePrivateDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  tighten(path, 0o700);
}

/** A file created 0600 before anything is written to it, or tightened to 0600 when it exists. */
export function ensurePrivateFile(path: string): void {
  closeSync(openSync(path, 'a', 0o600));
  tighten(path, 0o600);
}

function tighten(path: string, mode: number): void {
  if ((statSync(path).mode & 0o777 & ~mode) !== 0) chmodSync(path, mode);
}
