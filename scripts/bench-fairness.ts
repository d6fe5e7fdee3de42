/**
 * `npm run bench:fairness`: what one account's attacks do to another account, through the HTTP
 * API of a Pluck started as its own process (default settings, the machine's default pool).
 *
 * 1. Baseline: account B alone, ordinary requests one after another (content of a 30 KB page).
 * 2. The slow-page attack: account A keeps its whole concurrency (5 on the free plan) on a page
 *    that never answers, while B sends the same ordinary requests.
 * 3. The scrape attack: A keeps its concurrency on `*` three times over a page of 100 nested
 *    `div`s around a megabyte of text, while B sends ordinary requests; the server tree's memory
 *    (PSS of Pluck and every Chromium process, from /proc) is sampled throughout.
 *
 *   npm run bench:fairness -- [--requests N] [--attack-timeout MS]
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '30' },
    'attack-timeout': { type: 'string', default: '10000' },
  },
});
const REQUESTS = Number(values.requests);
const ATTACK_TIMEOUT_MS = Number(values['attack-timeout']);

function article(): string {
  const paragraph = (i: number) => `<p>Paragraph ${i}: ${'The quick brown fox jumps over the lazy dog while the benchmark measures the service. '.repeat(4)}</p>`;
  return `<!doctype html><html lang="en"><head><title>Bench page</title></head><body><main><article><h1>Article</h1>${Array.from({ length: 80 }, (_, i) => paragraph(i)).join('')}</article></main></body></html>`;
}

function nested(): string {
  return `<!doctype html><html lang="en"><head><title>Nested</title></head><body>${'<div>'.repeat(100)}<p>${'All work and no play. '.repeat(48_000)}</p>${'</div>'.repeat(100)}</body></html>`;
}

async function startSite() {
  const pages: Record<string, string> = { '/article': article(), '/nested': nested() };
  const server = createServer((req, res: ServerResponse) => {
    const page = pages[req.url ?? ''];
    if (page) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    // Anything else (/never) is accepted and never answered.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A port free right now: Pluck needs its own address before it starts (its sign-in checks the Origin against it). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startPluck(env: Record<string, string>) {
  const listenPort = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(listenPort),
      PUBLIC_BASE_URL: `http://127.0.0.1:${listenPort}`,
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const errors: string[] = [];
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.includes('"msg":"unhandled error"') && errors.length < 3) errors.push(line.slice(0, 2500));
      output += chunk.toString();
      const match = /"port":(\d+).*"msg":"pluck listening"/.exec(output);
      if (match) resolve(Number(match[1]));
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', () => reject(new Error(`Pluck exited: ${output.slice(-2000)}`)));
  });
  return { child, base: `http://127.0.0.1:${port}`, errors };
}

/** PSS in MB of `pid` and every descendant (Chromium's processes included). */
async function treePssMb(pid: number): Promise<number> {
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[1]) parents.set(Number(name), Number(fields[1]));
  }
  const tree = new Set([pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [child, parent] of parents) if (tree.has(parent) && !tree.has(child)) (tree.add(child), (grew = true));
  }
  let kb = 0;
  for (const member of tree) {
    const rollup = await readFile(`/proc/${member}/smaps_rollup`, 'utf8').catch(() => '');
    kb += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
  }
  return kb / 1024;
}

async function account(base: string, name: string): Promise<string> {
  const headers = { 'content-type': 'application/json', origin: base };
  const email = `${name}-${Date.now()}@example.com`;
  const signUp = await fetch(`${base}/v1/auth/sign-up/email`, { method: 'POST', headers, body: JSON.stringify({ email, password: 'bench-password-123', name }) });
  if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);
  const { token } = (await signUp.json()) as { token: string };
  const created = await fetch(`${base}/v1/api-keys`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${token}` }, body: JSON.stringify({ name }) });
  if (!created.ok) throw new Error(`key creation failed: ${created.status} ${await created.text()}`);
  return ((await created.json()) as { data: { key: string } }).data.key;
}

async function post(base: string, key: string, path: string, body: unknown) {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, ms: performance.now() - started, bytes: text.length };
}

interface Figures {
  p50: number;
  p95: number;
  errors: number;
}

async function ordinaryRequests(base: string, key: string, origin: string): Promise<Figures> {
  const times: number[] = [];
  let errors = 0;
  for (let i = 0; i < REQUESTS; i += 1) {
    const answer = await post(base, key, '/v1/web/content', { url: `${origin}/article`, maxAge: 0 });
    if (answer.status === 200) times.push(answer.ms);
    else errors += 1;
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? Number.NaN;
  return { p50: at(0.5), p95: at(0.95), errors };
}

/** Keeps `concurrency` requests in flight until `stop` resolves; counts answers by status. */
function attack(concurrency: number, stop: Promise<void>, once: () => Promise<{ status: number }>) {
  let stopped = false;
  void stop.then(() => (stopped = true));
  const statuses = new Map<number, number>();
  const loops = Array.from({ length: concurrency }, async () => {
    while (!stopped) {
      const { status } = await once().catch(() => ({ status: 0 }));
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  });
  return Promise.all(loops).then(() => statuses);
}

const format = (figures: Figures) => `p50 ${figures.p50.toFixed(0)} ms, p95 ${figures.p95.toFixed(0)} ms, errors ${figures.errors}/${REQUESTS}`;
const formatStatuses = (statuses: Map<number, number>) => [...statuses].map(([status, count]) => `${count}x ${status}`).join(', ');

async function main() {
  const site = await startSite();
  const dataDir = await mkdtemp(join(tmpdir(), 'pluck-fairness-'));
  const pluck = await startPluck({
    DATA_DIR: dataDir,
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret',
    ALLOW_PRIVATE_HOSTS: new URL(site.origin).host,
    FREE_MONTHLY_CREDITS: '1000000',
    FREE_REQUESTS_PER_HOUR: '1000000',
  });
  try {
    const attacker = await account(pluck.base, 'attacker');
    const victim = await account(pluck.base, 'victim');
    const concurrency = 5;
    await post(pluck.base, victim, '/v1/web/content', { url: `${site.origin}/article`, maxAge: 0 });
    const idleMb = await treePssMb(pluck.child.pid!);

    const alone = await ordinaryRequests(pluck.base, victim, site.origin);
    process.stdout.write(`B alone:                     ${format(alone)}\n`);

    let stopSlow!: () => void;
    const slowAttack = attack(concurrency, new Promise<void>((resolve) => (stopSlow = resolve)), () =>
      post(pluck.base, attacker, '/v1/web/content', { url: `${site.origin}/never`, timeout: ATTACK_TIMEOUT_MS, maxAge: 0 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const duringSlow = await ordinaryRequests(pluck.base, victim, site.origin);
    stopSlow();
    const slowStatuses = await slowAttack;
    process.stdout.write(`B during the slow-page attack: ${format(duringSlow)}  (A: ${formatStatuses(slowStatuses)})\n`);

    let peakMb = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peakMb = Math.max(peakMb, await treePssMb(pluck.child.pid!));
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
    let stopScrape!: () => void;
    const scrapeAttack = attack(concurrency, new Promise<void>((resolve) => (stopScrape = resolve)), () =>
      post(pluck.base, attacker, '/v1/web/scrape', { url: `${site.origin}/nested`, elements: [{ selector: '*' }, { selector: '*' }, { selector: '*' }] }),
    );
    const duringScrape = await ordinaryRequests(pluck.base, victim, site.origin);
    stopScrape();
    const scrapeStatuses = await scrapeAttack;
    sampling = false;
    await sampler;
    const alive = pluck.child.exitCode === null;
    process.stdout.write(`B during the scrape attack:   ${format(duringScrape)}  (A: ${formatStatuses(scrapeStatuses)})\n`);
    process.stdout.write(`Server tree PSS: idle ${idleMb.toFixed(0)} MB, peak during the scrape attack ${peakMb.toFixed(0)} MB; Pluck ${alive ? 'still running' : 'EXITED'}\n`);
    process.stdout.write(
      `Ratios against B alone: p95 ${(duringSlow.p95 / alone.p95).toFixed(2)}x (slow-page attack), ${(duringScrape.p95 / alone.p95).toFixed(2)}x (scrape attack)\n`,
    );
    if (pluck.errors.length > 0) process.stdout.write(`First errors Pluck logged:\n${pluck.errors.join('\n')}\n`);
  } finally {
    pluck.child.kill('SIGTERM');
    await new Promise((resolve) => pluck.child.once('exit', resolve));
    site.server.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
