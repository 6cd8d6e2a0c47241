/**
 * The floor of the request path: a bare Fastify (the BFF's own copy and version, resolved from
 * api/) answering GET / with a small JSON body, no logger, no hooks. Spawned by run.ts as its
 * own process (so its CPU is read from /proc like the BFF's); prints its port once listening.
 */
import { createRequire } from 'node:module';

interface Hello {
  get(path: string, handler: () => unknown): void;
  listen(options: { port: number; host: string }): Promise<string>;
  server: { address(): { port: number } | string | null };
}

const requireFromApi = createRequire(new URL('../../api/package.json', import.meta.url));
const fastify = requireFromApi('fastify') as (options: { logger: boolean }) => Hello;

const app = fastify({ logger: false });
app.get('/', () => ({ hello: 'world' }));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('no TCP port');
console.info(`listening ${address.port}`);
