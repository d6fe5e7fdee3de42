import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPluck, type Pluck, PluckError } from '../../packages/sdk/src/index.js';
import { apiClient } from '../helpers/client.js';
import { PNG_SIGNATURE, type PluckUnderTest, startPluckUnderTest } from './sdk-fixtures.js';

describe('the TypeScript SDK against a running Pluck', () => {
  let pluckServer: PluckUnderTest;
  let pluck: Pluck;
  let key: string;

  beforeAll(async () => {
    pluckServer = await startPluckUnderTest();
    ({ key } = await apiClient(pluckServer.server.baseUrl).signUpWithKey());
    pluck = createPluck({ apiKey: key, baseUrl: `${pluckServer.server.baseUrl}/` });
  });
  afterAll(() => pluckServer?.close());

  const articleUrl = () => `${pluckServer.site.origin}/article`;

  it('answers markdown in the typed envelope, charged as the API says', async () => {
    const before = (await pluck.credits()).data.balance;
    const answer = await pluck.markdown({ url: articleUrl() });
    expect(answer.success).toBe(true);
    expect(answer.data.markdown).toContain('# The Difference Engine');
    expect(answer.data.markdown).not.toContain('Footer words');
    expect(answer.data.metadata.title).toBe('SDK Fixture');
    expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.creditsCost).toBe(1);
    expect((await pluck.credits()).data.balance).toBe(before - 1);
  });

  it('answers a screenshot and a PDF as bytes, with the facts of their headers', async () => {
    const shot = await pluck.screenshot({ url: articleUrl() });
    expect(Buffer.from(shot.bytes.subarray(0, 8))).toEqual(PNG_SIGNATURE);
    expect(shot.contentType).toBe('image/png');
    expect(shot.creditsCost).toBe(1);
    expect(shot.requestId).toMatch(/^[0-9a-f-]{36}$/);
    // The stored copy behind fileUrl is the same image.
    expect(Buffer.from(await pluck.fileBytes(shot.fileUrl))).toEqual(Buffer.from(shot.bytes));

    const pdf = await pluck.pdf({ url: articleUrl(), pdfOptions: { landscape: true } });
    expect(Buffer.from(pdf.bytes.subarray(0, 5)).toString()).toBe('%PDF-');
    expect(pdf.contentType).toBe('application/pdf');
    expect(pdf.fileId).not.toBe('');
  });

  it('searches through the configured provider', async () => {
    const answer = await pluck.search({ query: 'difference engine', limit: 2 });
    expect(answer.data.results).toHaveLength(2);
    expect(answer.data.results[0]).toEqual(expect.objectContaining({ url: expect.stringMatching(/^https?:\/\//), title: expect.any(String) }));
    expect(pluckServer.searxng.requests.at(-1)?.url.searchParams.get('q')).toBe('difference engine');
  });

  it('throws PluckError with the status, code, message and request id of each failure', async () => {
    const refused = await createPluck({ apiKey: 'pk_not-a-key', baseUrl: pluckServer.server.baseUrl }).markdown({ url: articleUrl() }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(PluckError);
    expect(refused).toMatchObject({ status: 401, code: 'UNAUTHORIZED', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });

    const invalid = (await pluck.markdown({ url: 'not a url' }).catch((error: unknown) => error)) as PluckError;
    expect(invalid).toMatchObject({ status: 422, code: 'VALIDATION_ERROR' });
    expect(invalid.details.issues).toEqual([expect.objectContaining({ path: ['url'] })]);

    const unreachable = (await pluck.screenshot({ url: pluckServer.unreachableUrl }).catch((error: unknown) => error)) as PluckError;
    expect(unreachable).toMatchObject({ status: 502, code: 'TARGET_UNREACHABLE', requestId: expect.any(String) });
    expect(unreachable.message).not.toBe('');

    const nobody = (await createPluck({ apiKey: key, baseUrl: pluckServer.unreachableUrl }).credits().catch((error: unknown) => error)) as PluckError;
    expect(nobody).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });
});
