import { type ChildProcess, spawn } from 'node:child_process';

/** Node flags that run the TypeScript sources directly, as `npm run dev` does. */
export const TSX = ['--import', 'tsx'];

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output: string[];
  exited: Promise<number | null>;
}

/** Starts the real entry point as `npm start` would, on a free port read back from its log. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...TSX, 'src/server.ts'], {
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start: ${output.join('')}`));
    }, 90_000);
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      const match = /"port":(\d+).*"msg":"pluck listening"/.exec(output.join(''));
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.once('exit', () => reject(new Error(`server exited: ${output.join('')}`)));
  });
  return { child, baseUrl: `http://127.0.0.1:${port}`, output, exited };
}
