/**
 * The native app in Chromium (decision 0029). What the real app is, as near as a browser gets:
 *
 * - the web client built as the app is built, with VITE_API_ORIGIN naming the BFF;
 * - served from the app's own origin: https://localhost, the Android web view's (Chromium cannot
 *   load capacitor://, iOS's). A real HTTPS server on a free port holds the files, and the
 *   browser context reaches it through a small proxy that tunnels https://localhost:443 there,
 *   so nothing is intercepted: preflights, CORS and the BFF's answers are the real ones. Other
 *   loopback addresses (the BFF) bypass the proxy. The certificate is a self-signed one for
 *   localhost (fixtures/), accepted with ignoreHTTPSErrors;
 * - the platform the app believes it is on: Capacitor's Android bridge on the window, as the
 *   shell test does, plus what the native side gives Capacitor, the plugin headers and
 *   `nativePromise`, wired here to a Preferences store kept by the test (outside the page, as
 *   the device's storage is), which the test can read.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext } from 'playwright-core';
import { VIEWPORTS } from './browser.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));

/** The Android web view's origin, which the BFF admits (api/src/http/cors.ts). */
export const APP_ORIGIN = 'https://localhost';

/** Builds the web client as the app is built: production, pointed at the BFF. */
export function buildAppBundle(apiOrigin: string, outDir: string): void {
  const vite = path.join(ROOT, 'web/node_modules/vite/bin/vite.js');
  const build = spawnSync(
    process.execPath,
    [vite, 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'],
    {
      cwd: path.join(ROOT, 'web'),
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production', VITE_API_ORIGIN: apiOrigin },
    },
  );
  if (build.status !== 0) throw new Error('the app build failed (vite build with VITE_API_ORIGIN)');
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

export interface AppOrigin {
  /** The proxy for browser contexts that play the app (see appContext). */
  proxy: string;
  stop(): Promise<void>;
}

/**
 * Serves a built bundle at https://localhost, as the app's web view serves its bundled files:
 * a file when there is one, else index.html (the client router's paths).
 */
export async function serveAppOrigin(dist: string): Promise<AppOrigin> {
  const files = https.createServer(
    {
      key: readFileSync(path.join(FIXTURES, 'localhost-test.key')),
      cert: readFileSync(path.join(FIXTURES, 'localhost-test.crt')),
    },
    async (request, response) => {
      const pathname = decodeURIComponent(new URL(request.url ?? '/', APP_ORIGIN).pathname);
      const file = path.join(dist, path.normalize(pathname));
      const found = file.startsWith(dist) && (statSync(file, { throwIfNoEntry: false })?.isFile() ?? false);
      const served = found ? file : path.join(dist, 'index.html');
      try {
        const body = await readFile(served);
        response.writeHead(200, {
          'content-type': TYPES[path.extname(served)] ?? 'application/octet-stream',
        });
        response.end(body);
      } catch {
        response.writeHead(404).end();
      }
    },
  );
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  const filesPort = (files.address() as net.AddressInfo).port;

  // CONNECT localhost:443 → the file server; nothing else is tunnelled or forwarded.
  const sockets = new Set<Duplex>();
  const proxy = http.createServer((_request, response) => response.writeHead(403).end());
  proxy.on('connect', (request, client, head) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    if (request.url !== 'localhost:443') {
      client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    const upstream = net.connect(filesPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyPort = (proxy.address() as net.AddressInfo).port;

  return {
    proxy: `http://127.0.0.1:${proxyPort}`,
    async stop() {
      for (const socket of sockets) socket.destroy();
      files.closeAllConnections();
      await Promise.all([
        new Promise((resolve) => proxy.close(resolve)),
        new Promise((resolve) => files.close(resolve)),
      ]);
    },
  };
}

/** The device's Preferences (Capacitor's default group), as the test sees them. */
export type NativePreferences = Map<string, string>;

const PREFERENCES_METHODS = ['configure', 'get', 'set', 'remove', 'clear', 'keys', 'migrate', 'removeOld'];

/**
 * A browser context playing the Android app: its pages at https://localhost, the BFF reached
 * directly, and Capacitor believing it is native, with Preferences kept in `preferences`.
 */
export async function appContext(
  browser: Browser,
  origin: AppOrigin,
  preferences: NativePreferences,
  viewport: keyof typeof VIEWPORTS = 'phone',
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: VIEWPORTS[viewport],
    ignoreHTTPSErrors: true,
    // Loopback goes through the proxy only for https://localhost; the BFF's 127.0.0.1 does not.
    proxy: { server: origin.proxy, bypass: '<-loopback>,127.0.0.1' },
  });
  await context.exposeBinding(
    '__reshelfNativePreferences',
    (_source, method: string, options: { key?: string; value?: string }) => {
      switch (method) {
        case 'get':
          return { value: preferences.get(options.key ?? '') ?? null };
        case 'set':
          preferences.set(options.key ?? '', options.value ?? '');
          return undefined;
        case 'remove':
          preferences.delete(options.key ?? '');
          return undefined;
        case 'keys':
          return { keys: [...preferences.keys()] };
        case 'clear':
          preferences.clear();
          return undefined;
        default:
          throw new Error(`Preferences.${method} is not simulated`);
      }
    },
  );
  await context.addInitScript(
    ({ appOrigin, methods }) => {
      if (location.origin !== appOrigin) return;
      const w = window as unknown as Record<string, unknown>;
      // The Android bridge, which @capacitor/core reads the platform from.
      w.androidBridge = { postMessage: () => {} };
      // What the native side gives Capacitor: the plugins it has, and the call into them.
      const call = w.__reshelfNativePreferences as (method: string, options: unknown) => Promise<unknown>;
      w.Capacitor = {
        PluginHeaders: [
          { name: 'Preferences', methods: methods.map((name) => ({ name, rtype: 'promise' })) },
        ],
        nativePromise: (plugin: string, method: string, options?: unknown) =>
          plugin === 'Preferences'
            ? call(method, options ?? {})
            : Promise.reject(new Error(`${plugin} is not simulated`)),
        nativeCallback: () => {
          throw new Error('no native callbacks are simulated');
        },
      };
      // A returning visitor who has answered the cookie banner, so nothing covers the page.
      localStorage.setItem('cookie-consent', 'declined');
      localStorage.setItem('has-visited', 'true');
    },
    { appOrigin: APP_ORIGIN, methods: PREFERENCES_METHODS },
  );
  return context;
}
