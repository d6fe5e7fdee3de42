import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { FileService, type FileType } from '../../src/files/file.service.js';
import { FileSweeper } from '../../src/files/file-sweeper.js';
import { LocalBlobStore } from '../../src/files/local-blob-store.js';
import { apiClient } from '../helpers/client.js';
import { testDialects } from '../helpers/databases.js';
import { type RecordingServer, startRecordingServer } from '../helpers/recording-server.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const RECORD_FIELDS = ['created_at', 'expires_at', 'filename', 'id', 'metadata', 'public_url', 'r2_key', 'type', 'url'];
const PAST = '2000-01-01T00:00:00.000Z';

for (const dialect of await testDialects()) {
  describe(`files API and expiry sweeper [${dialect}]`, () => {
    let site: RecordingServer;
    let server: TestServer;
    let api: ReturnType<typeof apiClient>;
    let minute = 0;

    beforeAll(async () => {
      site = await startRecordingServer();
      server = await startTestServer(dialect, { ALLOW_PRIVATE_HOSTS: site.hostPort, FILE_SWEEP_BATCH_SIZE: '2' });
      api = apiClient(server.baseUrl);
    });
    afterAll(async () => {
      await server?.close();
      await site?.close();
    });

    const db = () => server.ctx.database.db;
    const newUser = async () => {
      const { token, userId } = await api.signUp();
      return { userId, key: (await api.createKey(token)).key };
    };
    /** Stores a file through the production service, each one a minute after the last (a day ago). */
    const storeFile = (userId: string, type: FileType) => {
      minute += 1;
      const at = new Date(Date.now() - 24 * 3600_000 + minute * 60_000);
      const files = new FileService(db(), server.ctx.blobs, server.ctx.config, () => at);
      const body = new TextEncoder().encode(`${type} ${minute}`);
      return files.store({ userId, plan: 'free', type, url: `https://example.com/${minute}`, body, contentType: type === 'pdf' ? 'application/pdf' : 'image/png', extension: type === 'pdf' ? 'pdf' : 'png', metadata: { minute } });
    };
    const expire = (id: string) => db().updateTable('file').set({ expires_at: PAST }).where('id', '=', id).execute();
    const list = (key: string, query = '') => api.get(`/v1/files/list${query}`, key);
    const served = async (url: string) => (await fetch(url)).status;

    it("lists only the caller's unexpired files, newest first, with totals, paging, type filter and sorting", async () => {
      const [alice, bob] = await Promise.all([newUser(), newUser()]);
      const stored = [];
      for (const type of ['screenshot', 'pdf', 'screenshot', 'pdf', 'screenshot'] as const) stored.push(await storeFile(alice.userId, type));
      await expire((await storeFile(alice.userId, 'pdf')).id);
      await storeFile(bob.userId, 'pdf');
      const shot = await api.post('/v1/web/screenshot', { url: `${site.origin}/shot` }, alice.key);
      expect(shot.status, shot.text).toBe(200);

      const all = await list(alice.key);
      expect(all.status, all.text).toBe(200);
      expect(all.body.creditsCost).toBe(0);
      expect(all.body.data.sqliteStatus).toEqual({ enabled: true, available: true, userId: alice.userId });
      expect(all.body.data).toMatchObject({ totalFiles: 6, hasMore: false });
      const ids = all.body.data.files.map((f: { id: string }) => f.id);
      expect(ids).toEqual([shot.headers.get('x-file-id'), ...stored.map((f) => f.id).reverse()]);
      expect(Object.keys(all.body.data.files[0]).sort()).toEqual(RECORD_FIELDS);
      expect(all.body.data.files[0]).toMatchObject({ type: 'screenshot', url: `${site.origin}/shot`, public_url: shot.headers.get('x-file-url') });

      const firstPage = await list(alice.key, '?limit=2');
      expect(firstPage.body.data.files.map((f: { id: string }) => f.id)).toEqual(ids.slice(0, 2));
      expect(firstPage.body.data).toMatchObject({ totalFiles: 6, hasMore: true });
      const lastPage = await list(alice.key, '?limit=2&offset=4');
      expect(lastPage.body.data.files.map((f: { id: string }) => f.id)).toEqual(ids.slice(4));
      expect(lastPage.body.data.hasMore).toBe(false);

      const pdfs = await list(alice.key, '?type=pdf&sortOrder=asc');
      expect(pdfs.body.data.files.map((f: { id: string }) => f.id)).toEqual([stored[1]!.id, stored[3]!.id]);
      expect(pdfs.body.data.totalFiles).toBe(2);
      const byName = await list(alice.key, '?sortBy=filename&sortOrder=asc');
      const names = byName.body.data.files.map((f: { filename: string }) => f.filename);
      expect(names).toEqual([...names].sort());

      const bobs = await list(bob.key);
      expect(bobs.body.data.totalFiles).toBe(1);
      expect(bobs.body.data.files[0].type).toBe('pdf');
    });

    it('answers 422 for any other query, and never lets query text reach the SQL', async () => {
      const user = await newUser();
      await storeFile(user.userId, 'pdf');
      const bad = [
        '?limit=0',
        '?limit=101',
        '?limit=abc',
        '?limit=1.5',
        '?limit=%2B5',
        '?offset=-1',
        '?type=gif',
        '?sortBy=size',
        '?sortOrder=up',
        '?sortBy=created_at%3B%20drop%20table%20file',
        '?sortBy=filename%20desc%2C%20id',
        '?foo=1',
        '?limit=1&limit=2',
      ];
      for (const query of bad) {
        const res = await list(user.key, query);
        expect(res.status, `${query}: ${res.text}`).toBe(422);
        expect(res.body.success).toBe(false);
        expect(res.body.error.issues.length, query).toBeGreaterThan(0);
      }
      expect((await list(user.key)).body.data.totalFiles).toBe(1);
      expect((await list(user.key, '?limit=100&offset=0&sortBy=filename&sortOrder=desc&type=pdf')).status).toBe(200);

      const doc = await api.get('/openapi.json');
      expect(doc.status, doc.text).toBe(200);
      const parameters = doc.body.paths['/v1/files/list'].get.parameters as { name: string; schema: Record<string, unknown> }[];
      expect(parameters.map((p) => p.name).sort()).toEqual(['limit', 'offset', 'sortBy', 'sortOrder', 'type']);
      expect(parameters.find((p) => p.name === 'limit')!.schema).toMatchObject({ minimum: 1, maximum: 100, default: 20 });
    });

    it("answers wasFound: false for someone else's or an unknown file and touches nothing", async () => {
      const [owner, stranger] = await Promise.all([newUser(), newUser()]);
      const file = await storeFile(owner.userId, 'screenshot');
      for (const fileId of [file.id, 'no-such-file']) {
        const res = await api.post('/v1/files/delete', { fileId, deleteFromR2: true }, stranger.key);
        expect(res.status, res.text).toBe(200);
        expect(res.body.data).toEqual({
          fileId,
          wasFound: false,
          deletedFromDatabase: false,
          deletedFromR2: false,
          deletedFile: null,
          error: 'File not found',
        });
      }
      expect((await list(owner.key)).body.data.files.map((f: { id: string }) => f.id)).toEqual([file.id]);
      expect(await served(file.public_url)).toBe(200);

      const missing = await api.post('/v1/files/delete', {}, owner.key);
      expect(missing.status).toBe(422);
      expect(missing.body.error.issues[0]).toMatchObject({ path: ['fileId'], code: 'invalid_type' });
    });

    it('deleteFromR2 false: the record goes, the object stays served until its expiry, then the sweeper removes it', async () => {
      const user = await newUser();
      const file = await storeFile(user.userId, 'pdf');
      const res = await api.post('/v1/files/delete', { fileId: file.id }, user.key);
      expect(res.body.data).toEqual({ fileId: file.id, wasFound: true, deletedFromDatabase: true, deletedFromR2: false, deletedFile: file, error: null });
      expect((await list(user.key)).body.data.totalFiles).toBe(0);
      expect(await served(file.public_url)).toBe(200);
      const orphan = await db().selectFrom('file_orphan').selectAll().where('r2_key', '=', file.r2_key).executeTakeFirst();
      expect(orphan).toEqual({ r2_key: file.r2_key, expires_at: file.expires_at });

      await db().updateTable('file_orphan').set({ expires_at: PAST }).where('r2_key', '=', file.r2_key).execute();
      expect(await served(file.public_url)).toBe(404);
      expect(await server.ctx.blobs.get(file.r2_key)).toBeDefined();
      expect((await server.ctx.fileSweeper.sweep()).orphans).toBeGreaterThanOrEqual(1);
      expect(await server.ctx.blobs.get(file.r2_key)).toBeUndefined();
      expect(await db().selectFrom('file_orphan').selectAll().where('r2_key', '=', file.r2_key).executeTakeFirst()).toBeUndefined();
    });

    it('deleteFromR2 true: the record and the object go at once', async () => {
      const user = await newUser();
      const file = await storeFile(user.userId, 'screenshot');
      const res = await api.post('/v1/files/delete', { fileId: file.id, deleteFromR2: true }, user.key);
      expect(res.body.data).toMatchObject({ wasFound: true, deletedFromDatabase: true, deletedFromR2: true, error: null });
      expect(await served(file.public_url)).toBe(404);
      expect(await server.ctx.blobs.get(file.r2_key)).toBeUndefined();
      const again = await api.post('/v1/files/delete', { fileId: file.id, deleteFromR2: true }, user.key);
      expect(again.body.data.wasFound).toBe(false);
    });

    it('sweeps expired records and orphans in batches; two instances sweeping at once both succeed', async () => {
      await server.ctx.fileSweeper.sweep();
      const user = await newUser();
      const keep = await storeFile(user.userId, 'pdf');
      const expired = [];
      for (let i = 0; i < 5; i += 1) expired.push(await storeFile(user.userId, 'screenshot'));
      for (const file of expired) await expire(file.id);
      const orphaned = [await storeFile(user.userId, 'pdf'), await storeFile(user.userId, 'pdf')];
      for (const file of orphaned) await api.post('/v1/files/delete', { fileId: file.id }, user.key);
      await db().updateTable('file_orphan').set({ expires_at: PAST }).where('r2_key', 'in', orphaned.map((f) => f.r2_key)).execute();

      // A second instance: its own database connection and blob store on the same data.
      const other = openDatabase({ databaseUrl: server.ctx.config.databaseUrl, dataDir: server.ctx.config.dataDir });
      try {
        const otherSweeper = new FileSweeper(other.db, new LocalBlobStore(join(server.ctx.config.dataDir, 'blobs')), pino({ level: 'silent' }), 2);
        const results = await Promise.all([server.ctx.fileSweeper.sweep(), otherSweeper.sweep()]);
        expect(results[0]!.records + results[1]!.records).toBe(5);
        expect(results[0]!.orphans + results[1]!.orphans).toBe(2);
      } finally {
        await other.close();
      }
      for (const file of [...expired, ...orphaned]) expect(await server.ctx.blobs.get(file.r2_key), file.id).toBeUndefined();
      expect((await list(user.key)).body.data.files.map((f: { id: string }) => f.id)).toEqual([keep.id]);
      expect(await served(keep.public_url)).toBe(200);
    });

    it('runs on its own schedule once started, as the server does', async () => {
      const user = await newUser();
      const file = await storeFile(user.userId, 'pdf');
      await expire(file.id);
      server.ctx.fileSweeper.start(1);
      try {
        for (let i = 0; i < 100 && (await server.ctx.blobs.get(file.r2_key)); i += 1) await new Promise((r) => setTimeout(r, 100));
      } finally {
        await server.ctx.fileSweeper.stop();
      }
      expect(await server.ctx.blobs.get(file.r2_key)).toBeUndefined();
      expect(await db().selectFrom('file').select('id').where('id', '=', file.id).executeTakeFirst()).toBeUndefined();
    });
  });
}
