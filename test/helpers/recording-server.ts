import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo, createServer as createTcpServer, type Socket } from 'node:net';

export interface RecordedHit {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** A WebSocket handshake rather than a plain request. */
  upgrade: boolean;
}

export type RouteHandler = (req: IncomingMessage, res: ServerResponse, server: RecordingServer) => void;

/** A route answering 200 with `body` inside a minimal HTML document, and `headers` besides. */
export function htmlPage(body: string, headers: Record<string, string> = {}): RouteHandler {
  return (_req, res) => res.writeHead(200, { 'content-type': 'text/html', ...headers }).end(`<!doctype html><html><body>${body}</body></html>`);
}

/** A loopback HTTP server that records everything that reaches it. */
export interface RecordingServer {
  /** `http://127.0.0.1:PORT` */
  origin: string;
  /** `127.0.0.1:PORT`, the form ALLOW_PRIVATE_HOSTS takes. */
  hostPort: string;
  port: number;
  hits: RecordedHit[];
  /** TCP connections accepted: one that never sends a request still counts. */
  connections: number;
  hitsTo(path: string): RecordedHit[];
  close(): Promise<void>;
}

/**
 * Starts a recording server on 127.0.0.1, port 0. Paths not in `routes` answer 200 with a
 * small HTML page; WebSocket handshakes are recorded and accepted.
 */
export async function startRecordingServer(routes: Record<string, RouteHandler> = {}): Promise<RecordingServer> {
  const sockets = new Set<Socket>();
  const server = createServer();
  const recording: RecordingServer = {
    origin: '',
    hostPort: '',
    port: 0,
    hits: [],
    connections: 0,
    hitsTo: (path) => recording.hits.filter((hit) => hit.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (socket) => {
    recording.connections += 1;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('request', (req, res) => {
    const path = new URL(req.url ?? '/', 'http://recording').pathname;
    recording.hits.push({ method: req.method ?? 'GET', path, headers: req.headers, upgrade: false });
    const route = routes[path];
    if (route) route(req, res, recording);
    else res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>ok</title><p>ok ${path}</p>`);
  });
  server.on('upgrade', (req, socket: Socket) => {
    const path = new URL(req.url ?? '/', 'http://recording').pathname;
    recording.hits.push({ method: req.method ?? 'GET', path, headers: req.headers, upgrade: true });
    const accept = createHash('sha1')
      .update(`${req.headers['sec-websocket-key'] ?? ''}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`)
      .digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  recording.port = (server.address() as AddressInfo).port;
  recording.origin = `http://127.0.0.1:${recording.port}`;
  recording.hostPort = `127.0.0.1:${recording.port}`;
  return recording;
}

/** A loopback port nothing listens on (taken, then released). */
export async function closedPort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
