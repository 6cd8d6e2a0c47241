/**
 * For tests: a local HTTP server shaped like Open Library's API, the two answers the adapter
 * reads: `/api/books?bibkeys=ISBN:…&format=json&jscmd=data` (the book) and `/isbn/{isbn}.json`
 * (the edition, whose `works` names its work). Each ISBN answers what the test set; the edition
 * answer may be any body, a status, or text that is not JSON.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeEdition {
  /** The "data" record of /api/books; absent: the ISBN is unknown there. */
  data?: Record<string, unknown>;
  /** /isbn/{isbn}.json: a JSON body, or a status, or raw text. */
  edition?: { body: unknown } | { status: number } | { raw: string };
}

export interface FakeOpenLibrary {
  baseUrl: string;
  editions: Map<string, FakeEdition>;
  /** The paths asked for, in order. */
  requests: string[];
  close(): Promise<void>;
}

export async function startFakeOpenLibrary(): Promise<FakeOpenLibrary> {
  const editions = new Map<string, FakeEdition>();
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    requests.push(`${url.pathname}${url.search}`);
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (url.pathname === '/api/books') {
      const key = url.searchParams.get('bibkeys') ?? '';
      const data = editions.get(key.replace(/^ISBN:/, ''))?.data;
      return json(200, data ? { [key]: data } : {});
    }
    const isbn = /^\/isbn\/([0-9X]+)\.json$/.exec(url.pathname)?.[1];
    const edition = isbn ? editions.get(isbn)?.edition : undefined;
    if (!edition) return json(404, { error: 'notfound' });
    if ('status' in edition) return json(edition.status, { error: 'failed' });
    if ('raw' in edition) {
      response.writeHead(200, { 'content-type': 'application/json' });
      return response.end(edition.raw);
    }
    return json(200, edition.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    editions,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
