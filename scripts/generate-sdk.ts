/**
 * Generates packages/sdk/src/generated from packages/sdk/openapi.json with @hey-api/openapi-ts
 * and its fetch client. `npm run generate` runs it after writing the snapshot; the drift test
 * runs it into a temporary directory and compares.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createClient } from '@hey-api/openapi-ts';
import { OPENAPI_SNAPSHOT, SDK_DIR } from './openapi-document.js';

export const GENERATED_DIR = join(SDK_DIR, 'src/generated');

export async function generateSdk(output = GENERATED_DIR, input = OPENAPI_SNAPSHOT): Promise<void> {
  await createClient({
    input,
    output,
    plugins: ['@hey-api/client-fetch'],
    logs: { file: false, level: 'silent' },
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await generateSdk();
  console.log(`generated ${GENERATED_DIR}`);
}
