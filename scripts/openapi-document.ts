/**
 * The OpenAPI document the SDK is generated from, built by the app itself (no listening port):
 * `npm run generate` writes it to packages/sdk/openapi.json and generates the client from it.
 * The drift test compares that snapshot with the document a running Pluck serves.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pino from 'pino';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { closeContext, createContext } from '../src/container.js';

export const SDK_DIR = resolve(import.meta.dirname, '../packages/sdk');
export const OPENAPI_SNAPSHOT = join(SDK_DIR, 'openapi.json');

/**
 * The served document without what depends on the deployment: `servers` carries
 * PUBLIC_BASE_URL, and an SDK user passes their own base URL.
 */
export function portableDocument(document: Record<string, unknown>): Record<string, unknown> {
  const { servers: _servers, ...rest } = document;
  return rest;
}

/** Stable text for the snapshot, so a diff shows what changed. */
export function documentText(document: Record<string, unknown>): string {
  return `${JSON.stringify(portableDocument(document), null, 2)}\n`;
}

/** Builds the app on a throw-away SQLite file and asks it for /openapi.json. */
export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = await mkdtemp(join(tmpdir(), 'pluck-openapi-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    PUBLIC_BASE_URL: 'http://localhost:3000',
    AUTH_SECRET: 'openapi-document-secret-that-is-only-used-offline',
  });
  const ctx = await createContext(config, { logger: pino({ level: 'silent' }) });
  try {
    const response = await createApp(ctx).request('/openapi.json');
    if (response.status !== 200) throw new Error(`/openapi.json answered ${response.status}`);
    return (await response.json()) as Record<string, unknown>;
  } finally {
    await closeContext(ctx);
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await writeFile(OPENAPI_SNAPSHOT, documentText(await buildOpenApiDocument()));
  console.log(`wrote ${OPENAPI_SNAPSHOT}`);
}
