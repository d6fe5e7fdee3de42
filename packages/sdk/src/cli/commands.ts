import { resolve } from 'node:path';
import type { Capture } from '../pluck.js';
import { actionDetails, actionOptions, actionsFrom, actionUsage } from './actions.js';
import { batchCommand } from './batch.js';
import { type Command, type CommandRun, intOption, toJson, UsageError } from './command.js';
import { EXIT, pageStatusError } from './exit-codes.js';
import { crawlCommand } from './crawl.js';
import { mcpCommand } from './mcp.js';

/** Writes a capture to -o FILE, or to stdout when that is a pipe; never raw bytes onto a terminal. */
async function deliverCapture({ io, values }: CommandRun, capture: Capture) {
  const output = values.output as string | undefined;
  if (output) {
    await io.writeFile(output, capture.bytes);
    io.err(`wrote ${resolve(output)} (${capture.bytes.byteLength} bytes, ${capture.creditsCost} credits)`);
  } else {
    await io.outBytes(capture.bytes);
  }
  if (values.json) {
    const { bytes, ...facts } = capture;
    io.err(toJson({ ...facts, size: bytes.byteLength, output: output ? resolve(output) : null }));
  }
}

function requireOutputOrPipe({ io, values }: CommandRun) {
  if (!values.output && io.stdoutIsTty) throw new UsageError('give -o FILE, or pipe stdout: the answer is binary');
}

const outputOption = { output: { type: 'string', short: 'o' } } as const;

const markdown: Command = {
  summary: "A page's main content as markdown, on stdout",
  args: ['URL'],
  usage: `[--wait-for SELECTOR] ${actionUsage} [--json]`,
  details: `  --wait-for SELECTOR  Wait for this CSS selector before reading the page.\n${actionDetails}\n  --json               Print the whole answer (metadata, credits, request id, what the actions made) as JSON.\n\nA page that answers an HTTP error (404, 500...) is printed all the same, and exits 5.`,
  options: { 'wait-for': { type: 'string' }, ...actionOptions },
  async run({ pluck, io, values, args, signal }) {
    const answer = await pluck.markdown(
      { url: args[0]!, ...(values['wait-for'] ? { waitForSelector: values['wait-for'] as string } : {}), ...(await actionsFrom(values)) },
      { signal: signal() },
    );
    io.out(values.json ? toJson(answer) : answer.data.markdown);
    const failedPage = pageStatusError(answer.data.metadata.statusCode);
    if (failedPage) io.err(`pluck markdown: ${failedPage} (its content was printed)`);
    return failedPage ? EXIT.TARGET : EXIT.OK;
  },
};

const screenshot: Command = {
  summary: 'A screenshot of a page (PNG), to a file or a pipe',
  args: ['URL'],
  usage: `-o FILE [--full-page] [--type png|jpeg|webp] ${actionUsage} [--json]`,
  details: `  -o, --output FILE  Write the image here (without it, stdout must be a pipe).\n  --full-page        The whole page, not only the viewport.\n  --type TYPE        png (default), jpeg or webp.\n${actionDetails}\n  --json             Also print the capture's facts (file URL, credits, request id) as JSON on stderr.`,
  options: { ...outputOption, 'full-page': { type: 'boolean' }, type: { type: 'string' }, ...actionOptions },
  async run(run) {
    requireOutputOrPipe(run);
    const type = (run.values.type as string | undefined) ?? 'png';
    if (!['png', 'jpeg', 'webp'].includes(type)) throw new UsageError(`--type is png, jpeg or webp, not "${type}"`);
    const capture = await run.pluck.screenshot(
      { url: run.args[0]!, screenshotOptions: { fullPage: Boolean(run.values['full-page']), type: type as 'png' }, ...(await actionsFrom(run.values)) },
      { signal: run.signal() },
    );
    await deliverCapture(run, capture);
    return EXIT.OK;
  },
};

const pdf: Command = {
  summary: 'A PDF of a page, to a file or a pipe',
  args: ['URL'],
  usage: `-o FILE [--landscape] ${actionUsage} [--json]`,
  details: `  -o, --output FILE  Write the PDF here (without it, stdout must be a pipe).\n  --landscape        Landscape A4 instead of portrait.\n${actionDetails}\n  --json             Also print the capture's facts as JSON on stderr.`,
  options: { ...outputOption, landscape: { type: 'boolean' }, ...actionOptions },
  async run(run) {
    requireOutputOrPipe(run);
    const capture = await run.pluck.pdf(
      { url: run.args[0]!, ...(run.values.landscape ? { pdfOptions: { landscape: true } } : {}), ...(await actionsFrom(run.values)) },
      { signal: run.signal() },
    );
    await deliverCapture(run, capture);
    return EXIT.OK;
  },
};

const search: Command = {
  summary: 'Web search: title, URL and snippet of each result',
  args: ['QUERY'],
  usage: '[--limit N] [--json]',
  details: '  --limit N  At most N results (1-50, default 5).\n  --json     Print the whole answer as JSON.',
  options: { limit: { type: 'string' } },
  async run({ pluck, io, values, args, signal }) {
    const limit = intOption(values, 'limit', 5, 1, 50);
    const answer = await pluck.search({ query: args[0]!, limit }, { signal: signal() });
    if (values.json) io.out(toJson(answer));
    else io.out(answer.data.results.map((result) => `${result.title}\n${result.url}\n${result.snippet}\n`).join('\n') || 'no results');
    return EXIT.OK;
  },
};

/** Every `pluck` command. */
export const COMMANDS: Record<string, Command> = {
  markdown,
  screenshot,
  pdf,
  search,
  batch: batchCommand,
  crawl: crawlCommand,
  mcp: mcpCommand,
};
