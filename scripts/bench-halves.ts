import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Scores a bench output folder on the whole data set and on two fixed halves of it, so a rule
 * tuned on pages of one half can be checked on the other (issue 30: dev scores were above the
 * hold-out's). A page's half is the parity of the first byte of sha256("half:" + id): not the
 * sha1 of the id the data sets were sampled by, so the halves do not follow that sampling.
 *
 *   npx tsx scripts/bench-halves.ts DATA_DIR PRED_DIR
 */

const SCORER = fileURLToPath(new URL('../../shared/bench/score-extraction.mjs', import.meta.url));

export function halfOf(id: string): 'A' | 'B' {
  const firstByte = createHash('sha256').update(`half:${id}`, 'utf8').digest()[0] ?? 0;
  return firstByte % 2 === 0 ? 'A' : 'B';
}

function score(predDir: string, truthFile: string, byType: boolean): string {
  const args = [SCORER, predDir, truthFile, ...(byType ? ['--by', 'pageType'] : [])];
  const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
  // The summary lines only: per-type lines and the final F1 line.
  return result.stdout
    .split('\n')
    .filter((line) => /^\s+pageType=|^F1 /.test(line))
    .join('\n');
}

async function main(): Promise<void> {
  const [dataArg, predArg] = process.argv.slice(2).filter((arg) => arg !== '--');
  if (!dataArg || !predArg) {
    process.stderr.write('usage: npx tsx scripts/bench-halves.ts DATA_DIR PRED_DIR\n');
    process.exit(2);
  }
  const dataDir = resolve(dataArg);
  const predDir = resolve(predArg);
  const truth = JSON.parse(await readFile(join(dataDir, 'ground-truth.json'), 'utf8')) as Record<string, { pageType?: string }>;
  const byType = Object.values(truth).some((entry) => entry.pageType !== undefined);
  const work = await mkdtemp(join(tmpdir(), 'bench-halves-'));
  try {
    const out: string[] = [`== all (${Object.keys(truth).length} pages) ==`, score(predDir, join(dataDir, 'ground-truth.json'), byType)];
    for (const half of ['A', 'B'] as const) {
      const part = Object.fromEntries(Object.entries(truth).filter(([id]) => halfOf(id) === half));
      const file = join(work, `truth-${half}.json`);
      await writeFile(file, JSON.stringify(part));
      out.push(`== half ${half} (${Object.keys(part).length} pages) ==`, score(predDir, file, byType));
    }
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
