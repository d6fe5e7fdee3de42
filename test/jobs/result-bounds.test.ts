import { unzipSync } from 'fflate';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrations.js';
import { apiClient } from '../helpers/client.js';
import { testDialects } from '../helpers/databases.js';
import { type RecordingServer, type RouteHandler, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';
import { allResults, waitForJob } from './job-client.js';

const dialects = await testDialects();

/** Small bounds, so that a few pages of some kilobytes meet them. */
const ANSWER_MAX_BYTES = 16_384;
const RESULT_MAX_BYTES = 40_000;
const TOTAL_MAX_BYTES = 100_000;

/** A page of `paragraphs` paragraphs of about 100 bytes of words each; not all ASCII, so that characters and bytes differ. */
const text = (name: string, paragraphs: number) =>
  Array.from({ length: paragraphs }, (_, index) => `<p>${name} paragraph ${index}: café ${Array.from({ length: 12 }, (_, word) => `word${(index * 13 + word) % 97}`).join(' ')}.</p>`).join('');

async function startSite(): Promise<RecordingServer> {
  const routes: Record<string, RouteHandler> = {};
  const page = (name: string, paragraphs: number): RouteHandler => (_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><html><head><title>${name}</title></head><body><main><h1>${name}</h1>${text(name, paragraphs)}</main></body></html>`);
  // Results of about 5 KB (three fit in an answer), one of about 25 KB (more than an answer
  // holds: answered alone), one of about 60 KB (more than a result may take), and pages of about
  // 20 KB for the bound on a job's total.
  for (let n = 0; n < 8; n += 1) routes[`/small/${n}`] = page(`Small ${n}`, 45);
  routes['/large'] = page('Large', 240);
  routes['/huge'] = page('Huge', 600);
  for (let n = 0; n < 8; n += 1) routes[`/even/${n}`] = page(`Even ${n}`, 200);
  return startRecordingServer(routes);
}

for (const dialect of dialects) {
  describe(`bounds on a job's stored results and its answers (${dialect})`, () => {
    let site: RecordingServer;
    let server: TestServer;
    let api: ReturnType<typeof apiClient>;
    let key: string;

    beforeAll(async () => {
      site = await startSite();
      server = await startTestServer(dialect, {
        ALLOW_PRIVATE_HOSTS: site.hostPort,
        JOB_POLL_INTERVAL_MS: '200',
        // One page at a time: the bound on a job's total is met at a known page.
        JOB_CONCURRENCY: '1',
        JOB_ANSWER_MAX_BYTES: String(ANSWER_MAX_BYTES),
        JOB_RESULT_MAX_BYTES: String(RESULT_MAX_BYTES),
        JOB_TOTAL_MAX_BYTES: String(TOTAL_MAX_BYTES),
        FREE_JOBS_AT_ONCE: '10',
        LOG_LEVEL: 'warn',
      });
      api = apiClient(server.baseUrl, null);
      ({ key } = await api.signUpWithKey());
    }, 120_000);
    afterAll(async () => {
      await server?.close();
      await site?.close();
    });

    const batch = async (paths: string[]) => {
      const urls = paths.map((path) => `${site.origin}${path}`);
      const created = await api.post('/v1/jobs/batch', { urls, formats: ['markdown'], waitUntil: 'domcontentloaded' }, key);
      expect(created.status, created.text).toBe(201);
      const id = created.body.data.id as string;
      return { id, urls, job: await waitForJob(api, key, id, 180_000) };
    };
    /** What the credit ledger charged for a job: its rows carry the job's id as their request id. */
    const ledgerCharge = async (jobId: string) => {
      const rows = await server.ctx.database.db.selectFrom('credit_ledger').select(['delta', 'reason']).where('request_id', '=', jobId).execute();
      return { charged: -rows.reduce((sum, row) => sum + Number(row.delta), 0), refunds: rows.filter((row) => row.reason.startsWith('refund:')).length };
    };

    it('pages the status by size: each answer within JOB_ANSWER_MAX_BYTES, a bigger result alone, every result once', async () => {
      const paths = ['/small/0', '/small/1', '/small/2', '/small/3', '/large', '/small/4', '/small/5', '/small/6'];
      const { id, urls, job } = await batch(paths);
      expect(job.status).toBe('completed');
      const read: string[] = [];
      const pages: Array<{ bytes: number; urls: string[] }> = [];
      for (let cursor: string | null = '0'; cursor !== null; ) {
        const res = await fetch(`${server.baseUrl}/v1/jobs/${id}?limit=100&cursor=${cursor}`, { headers: { authorization: `Bearer ${key}` } });
        const body = await res.text();
        expect(res.status, body.slice(0, 300)).toBe(200);
        const { data } = JSON.parse(body);
        pages.push({ bytes: Buffer.byteLength(body), urls: data.results.map((result: { url: string }) => result.url) });
        read.push(...pages.at(-1)!.urls);
        if (data.results.length > 1) expect(Buffer.byteLength(body), `a page of ${data.results.length} results`).toBeLessThanOrEqual(ANSWER_MAX_BYTES);
        expect(data.results.length, `an empty page with next ${data.next}`).toBeGreaterThan(0);
        cursor = data.next;
      }
      expect(read).toEqual(urls);
      const large = pages.find((page) => page.urls.includes(`${site.origin}/large`))!;
      expect(large.urls, `pages: ${JSON.stringify(pages)}`).toHaveLength(1);
      expect(large.bytes).toBeGreaterThan(ANSWER_MAX_BYTES);
      expect(pages.length, `pages: ${JSON.stringify(pages)}`).toBeGreaterThanOrEqual(4);
      // The cursor reader of the suites gives the same results, parsed: the spliced JSON is the results' own.
      const parsed = await allResults(api, key, id);
      expect(parsed.map((result) => result.url)).toEqual(urls);
      expect(parsed[0]!.data.markdown).toContain('Small 0 paragraph 44:');
      expect(parsed.every((result) => result.creditsCost === 1)).toBe(true);

      // Firecrawl's status route: the same bound, its own next URL.
      const documents: string[] = [];
      const firecrawlPages: number[] = [];
      for (let next: string | undefined = `${server.baseUrl}/v2/batch/scrape/${id}`; next; ) {
        const res = await fetch(next, { headers: { authorization: `Bearer ${key}` } });
        const body = await res.text();
        expect(res.status, body.slice(0, 300)).toBe(200);
        const answer = JSON.parse(body) as { data: Array<{ metadata: { sourceURL: string } }>; next?: string };
        if (answer.data.length > 1) expect(Buffer.byteLength(body)).toBeLessThanOrEqual(ANSWER_MAX_BYTES);
        firecrawlPages.push(answer.data.length);
        documents.push(...answer.data.map((document) => document.metadata.sourceURL));
        if (answer.next) expect(answer.next).toMatch(new RegExp(`^${server.baseUrl}/v2/batch/scrape/${id}\\?skip=\\d+$`));
        next = answer.next;
      }
      expect(documents).toEqual(urls);
      expect(firecrawlPages.length).toBeGreaterThanOrEqual(4);
    });

    it('streams a download one result per chunk, and zips each page', async () => {
      const { id, urls } = await batch(['/small/0', '/large', '/small/1', '/small/2']);
      const headers = { authorization: `Bearer ${key}` };
      // In process, the answer's body is the download's own stream: its chunks are what it sends.
      const res = await server.app.request(`/v1/jobs/${id}/download?format=jsonl`, { headers });
      expect(res.status).toBe(200);
      const chunks: string[] = [];
      const reader = res.body!.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(new TextDecoder().decode(read.value));
      expect(chunks.map((chunk) => chunk.split('\n').length), 'one line per chunk').toEqual(urls.map(() => 2));
      expect(chunks.map((chunk) => JSON.parse(chunk).url)).toEqual(urls);
      expect(chunks.map((chunk) => JSON.parse(chunk)), 'lines as the status route answers them').toEqual(await allResults(api, key, id));

      const zip = await fetch(`${server.baseUrl}/v1/jobs/${id}/download?format=zip`, { headers });
      expect(zip.status).toBe(200);
      const files = unzipSync(new Uint8Array(await zip.arrayBuffer()));
      const host = new URL(site.origin).hostname;
      expect(Object.keys(files).sort()).toEqual([`${host}/large.md`, `${host}/small/0.md`, `${host}/small/1.md`, `${host}/small/2.md`]);
      expect(new TextDecoder().decode(files[`${host}/large.md`])).toContain('Large paragraph 239:');
    });

    it('does not store, nor charge, a result over JOB_RESULT_MAX_BYTES, and says so in its result', async () => {
      const balance = async () => (await api.get('/v1/user/credits', key)).body.data.balance as number;
      const before = await balance();
      const { id, urls, job } = await batch(['/small/0', '/huge', '/small/1']);
      expect(job).toMatchObject({ status: 'completed', progress: { total: 3, completed: 2, failed: 1 }, creditsUsed: 2 });
      const results = await allResults(api, key, id);
      expect(results.map((result) => result.url)).toEqual(urls);
      const huge = results[1]!;
      expect(huge).toMatchObject({ status: 'failed', creditsCost: 0, error: { code: 'RESULT_TOO_LARGE' } });
      expect(huge.error!.message).toContain('JOB_RESULT_MAX_BYTES');
      expect(huge.data).toBeUndefined();
      expect(await ledgerCharge(id), 'the page was reserved, then given back').toEqual({ charged: 2, refunds: 1 });
      expect(await balance()).toBe(before - 2);
      const stored = await server.ctx.database.db.selectFrom('job_result').select(['ordinal', 'size']).where('job_id', '=', id).orderBy('ordinal').execute();
      expect(stored[1]!.size).toBe(0);
      expect(stored.every((row) => Number(row.size) <= RESULT_MAX_BYTES)).toBe(true);
    });

    it('stops a job at JOB_TOTAL_MAX_BYTES: the page past it is neither stored nor charged, later pages are not loaded, the job fails saying so', async () => {
      const paths = Array.from({ length: 8 }, (_, n) => `/even/${n}`);
      const { id, urls, job } = await batch(paths);
      const stored = await server.ctx.database.db.selectFrom('job_result').select(['ordinal', 'size', 'url']).where('job_id', '=', id).orderBy('ordinal').execute();
      const pageSize = Number(stored[0]!.size);
      // Every page is the same size (its number apart): this many fit under the bound.
      const fitting = Math.floor(TOTAL_MAX_BYTES / pageSize);
      expect(fitting, `a page takes ${pageSize} bytes`).toBeGreaterThanOrEqual(2);
      expect(fitting).toBeLessThan(paths.length - 1);
      expect(job, JSON.stringify(job)).toMatchObject({
        status: 'failed',
        error: { code: 'JOB_RESULTS_TOO_LARGE' },
        progress: { total: paths.length, completed: fitting, failed: 1 },
        creditsUsed: fitting,
      });
      expect(job.error.message).toContain('JOB_TOTAL_MAX_BYTES');
      const results = await allResults(api, key, id);
      expect(results.map((result) => result.url)).toEqual(urls.slice(0, fitting + 1));
      expect(results[fitting]).toMatchObject({ status: 'failed', creditsCost: 0, error: { code: 'JOB_RESULTS_TOO_LARGE' } });
      expect(stored.reduce((sum, row) => sum + Number(row.size), 0)).toBeLessThanOrEqual(TOTAL_MAX_BYTES);
      const row = await server.ctx.database.db.selectFrom('job').select('result_bytes').where('id', '=', id).executeTakeFirstOrThrow();
      expect(Number(row.result_bytes)).toBe(stored.reduce((sum, result) => sum + Number(result.size), 0));
      for (const path of paths.slice(fitting + 1)) expect(site.hitsTo(path), `${path} was loaded`).toHaveLength(0);
      expect(await ledgerCharge(id)).toEqual({ charged: fitting, refunds: 1 });
    });

    it('measures the results of a database written before sizes were stored, in the migration', async () => {
      const { id } = await batch(['/small/3', '/small/4']);
      const { db } = server.ctx.database;
      const expected = (await db.selectFrom('job_result').select(['ordinal', 'data']).where('job_id', '=', id).orderBy('ordinal').execute()).map((row) => Buffer.byteLength(row.data!));
      // Back to the schema before 0008: the columns gone, the migration not yet run.
      await db.schema.alterTable('job_result').dropColumn('size').execute();
      await db.schema.alterTable('job').dropColumn('result_bytes').execute();
      await sql`delete from kysely_migration where name = '0008_job_result_size'`.execute(db);
      await migrate(server.ctx.database, async () => undefined);
      const sizes = await db.selectFrom('job_result').select('size').where('job_id', '=', id).orderBy('ordinal').execute();
      expect(sizes.map((row) => Number(row.size))).toEqual(expected);
      const job = await db.selectFrom('job').select('result_bytes').where('id', '=', id).executeTakeFirstOrThrow();
      expect(Number(job.result_bytes)).toBe(expected.reduce((sum, size) => sum + size, 0));
      // And the status route pages from them.
      expect((await allResults(api, key, id)).map((result) => result.url)).toEqual([`${site.origin}/small/3`, `${site.origin}/small/4`]);
    });
  });
}
