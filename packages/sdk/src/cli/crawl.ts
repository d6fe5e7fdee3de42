import { type Command, intOption, toJson } from './command.js';
import { EXIT } from './exit-codes.js';

const POLL_MS = 1000;
const FINISHED = new Set(['completed', 'failed', 'cancelled']);

/**
 * `pluck crawl URL`: a crawl job from start to end. Progress goes to stderr (a redrawn line on
 * a terminal), then the results: a zip of markdown files or JSON lines into -o FILE, or JSON
 * lines on stdout. Ctrl-C cancels the job on the server rather than leaving it running.
 */
export const crawlCommand: Command = {
  summary: "A site's pages as markdown: crawl from a URL over its links and sitemaps",
  args: ['URL'],
  usage: '[--limit N] [--max-depth N] [--include REGEX] [--exclude REGEX] [-o FILE.zip|FILE.jsonl] [--json]',
  details: [
    '  --limit N          Pages at most, the start page included (default 50).',
    '  --max-depth N      Link hops from the start URL (default 10).',
    '  --include REGEX    Only paths matching it are followed (repeatable).',
    '  --exclude REGEX    Paths matching it are not followed (repeatable).',
    '  -o, --output FILE  A .zip of markdown files (one per page, named after its URL), or .jsonl.',
    '                     Without it, one JSON line per page on stdout.',
    '  --json             Print the finished job (status, progress, credits) as JSON on stderr.',
    '',
    'robots.txt is honoured and the crawl stays on the start URL\'s site. Pages that failed (a',
    'broken link) are in the results with their error; the crawl still exits 0 when it completed.',
  ].join('\n'),
  options: {
    limit: { type: 'string' },
    'max-depth': { type: 'string' },
    include: { type: 'string', multiple: true },
    exclude: { type: 'string', multiple: true },
    output: { type: 'string', short: 'o' },
  },
  async run({ pluck, io, values, args, signal }) {
    const output = values.output as string | undefined;
    const format = output && !output.endsWith('.jsonl') ? 'zip' : 'jsonl';
    const started = await pluck.crawl(
      {
        url: args[0]!,
        limit: intOption(values, 'limit', 50, 1, 1_000_000),
        maxDepth: intOption(values, 'max-depth', 10, 0, 100),
        includePaths: (values.include as unknown as string[] | undefined) ?? [],
        excludePaths: (values.exclude as unknown as string[] | undefined) ?? [],
        formats: ['markdown'],
      },
      { signal: signal() },
    );
    const id = started.data.id;
    io.err(`crawl ${id} started`);
    const cancel = () => {
      io.err(`\ncancelling crawl ${id}`);
      void pluck.cancelJob(id).finally(() => process.exit(130));
    };
    process.once('SIGINT', cancel);
    try {
      let job = (await pluck.job(id, { limit: 1 }, { signal: signal() })).data;
      while (!FINISHED.has(job.status)) {
        if (io.stderrIsTty) io.status(`[crawl] ${job.progress.completed} done, ${job.progress.failed} failed of ${job.progress.total} found`);
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        job = (await pluck.job(id, { limit: 1 }, { signal: signal() })).data;
      }
      if (io.stderrIsTty) io.status('');
      const bytes = await pluck.jobDownload(id, format, { signal: signal() });
      if (output) await io.writeFile(output, bytes);
      else await io.outBytes(bytes);
      const { completed, failed } = job.progress;
      io.err(`${job.status}: done ${completed}, failed ${failed}, credits ${job.creditsUsed}${output ? `; wrote ${output}` : ''}`);
      if (values.json) io.err(toJson(job));
      if (job.status === 'completed') return EXIT.OK;
      io.err(`pluck crawl: ${job.error ? `${job.error.code}: ${job.error.message}` : `the crawl ended ${job.status}`}`);
      return job.error?.code === 'INSUFFICIENT_CREDITS' ? EXIT.LIMITS : EXIT.TARGET;
    } finally {
      process.removeListener('SIGINT', cancel);
    }
  },
};
