/**
 * A TCP proxy in front of a test database, so a test can make PostgreSQL "go away" for the app
 * and come back, without stopping the run's shared cluster: `cut()` drops every open connection
 * mid-stream and refuses new ones (as a stopped server does), `restore()` lets them through again.
 */
import { createServer, type Socket, connect as tcpConnect } from 'node:net';

export interface DatabaseProxy {
  /** The database URL, pointed at the proxy. */
  url: string;
  /** Drops every open connection and refuses new ones. */
  cut(): void;
  /** Accepts connections again. */
  restore(): void;
  close(): Promise<void>;
}

export async function startDatabaseProxy(databaseUrl: string): Promise<DatabaseProxy> {
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  let open = true;
  const server = createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = tcpConnect(Number(target.port), target.hostname);
    sockets.add(client);
    sockets.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop);
    upstream.on('error', drop);
    client.on('close', drop);
    upstream.on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
      sockets.clear();
    },
    restore() {
      open = true;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
