import { type ChildProcess, spawn } from 'node:child_process';
import { TSX } from '../helpers/server-process.js';

export interface WorkerProcess {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

/** `npm run worker` from the sources, started once it says it runs jobs. */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [...TSX, 'src/worker.ts'], { env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`worker did not start: ${output.join('')}`));
    }, 90_000);
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.join('').includes('pluck worker running jobs')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', () => reject(new Error(`worker exited: ${output.join('')}`)));
  });
  return { child, output, exited };
}
