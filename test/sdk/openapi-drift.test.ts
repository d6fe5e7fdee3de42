import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GENERATED_DIR, generateSdk } from '../../scripts/generate-sdk.js';
import { documentText, OPENAPI_SNAPSHOT } from '../../scripts/openapi-document.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const FIX = 'the API changed: run `npm run generate` and commit packages/sdk (openapi.json and src/generated)';

async function filesUnder(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = new Map<string, string>();
  for (const entry of entries.filter((e) => e.isFile())) {
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path), await readFile(path, 'utf8'));
  }
  return files;
}

describe('the committed SDK matches the API Pluck serves', () => {
  let server: TestServer;
  let scratch: string;
  beforeAll(async () => {
    [server, scratch] = await Promise.all([startTestServer('sqlite'), mkdtemp(join(tmpdir(), 'pluck-sdk-drift-'))]);
  });
  afterAll(async () => {
    await server?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("the OpenAPI snapshot is the running app's /openapi.json", async () => {
    const served = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as Record<string, unknown>;
    expect(Object.keys(served.paths as object).length).toBeGreaterThan(20);
    expect(documentText(served) === (await readFile(OPENAPI_SNAPSHOT, 'utf8')), FIX).toBe(true);
  });

  it('the generated code is what the generator makes of the snapshot', async () => {
    await generateSdk(scratch);
    const [fresh, committed] = await Promise.all([filesUnder(scratch), filesUnder(GENERATED_DIR)]);
    expect([...committed.keys()].sort(), FIX).toEqual([...fresh.keys()].sort());
    for (const [path, text] of fresh) expect(committed.get(path) === text, `${path}: ${FIX}`).toBe(true);
  });
});
