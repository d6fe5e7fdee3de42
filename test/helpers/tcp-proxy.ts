import { type AddressInfo, createConnection, createServer, type Socket } from 'node:net';

/**
 * How the proxy treats traffic: `pass` forwards it; `refuse` drops every connection (the
 * service is down); `stall` keeps connections open but forwards nothing (a dead link).
 */
export type ProxyMode = 'pass' | 'refuse' | 'stall';

export interface TcpProxy {
  port: number;
  /** Client connections accepted so far. */
  readonly connections: number;
  /** `pass` -> `refuse` also drops the live connections, as a restart of the target would. */
  setMode(mode: ProxyMode): void;
  close(): Promise<void>;
}

/** A loopback TCP proxy in front of `targetPort`, so a test can take the target away and bring it back. */
export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  let mode: ProxyMode = 'pass';
  let connections = 0;
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    connections += 1;
    if (mode === 'refuse') return void client.destroy();
    const upstream = createConnection({ port: targetPort, host: targetHost });
    track(upstream);
    const forward = (from: Socket, to: Socket) => {
      from.on('data', (chunk) => {
        if (mode === 'pass') to.write(chunk);
      });
      from.on('close', () => to.destroy());
    };
    forward(client, upstream);
    forward(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return connections;
    },
    setMode(next) {
      mode = next;
      if (next === 'refuse') for (const socket of sockets) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
