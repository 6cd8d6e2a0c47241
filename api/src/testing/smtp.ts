/**
 * A real SMTP server inside the test (smtp-server, with a self-signed certificate made for the
 * run, for STARTTLS or implicit TLS) that keeps what it receives, parsed with mailparser. A
 * message is parsed before the server answers 250, so once a send has resolved it is here.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface ReceivedMail {
  /** The SMTP envelope. */
  mailFrom: string | null;
  rcptTo: string[];
  /** The session ran over TLS (upgraded with STARTTLS, or TLS from the start). */
  tls: boolean;
  /** Who logged in, when anyone did. */
  user: string | null;
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpSink {
  port: number;
  /** smtp(s)://user:password@127.0.0.1:port, accepting the sink's self-signed certificate. */
  url: string;
  received: ReceivedMail[];
  close(): Promise<void>;
}

export interface SmtpSinkOptions {
  /** TLS from the first byte (smtps://) rather than STARTTLS. */
  secure?: boolean;
  /** Refuse these recipients with 550 (a mailbox that does not exist). */
  rejectRecipients?: string[];
  /** Answer every message with this code and text instead of accepting it (e.g. 451). */
  failData?: { code: number; message: string };
  /** The login the sink accepts. */
  login?: { user: string; password: string };
  /** No STARTTLS at all (a plain relay). */
  noSTARTTLS?: boolean;
}

let certificate: { key: string; cert: string } | null | undefined;

/**
 * A self-signed certificate for 127.0.0.1, made once per run with openssl (smtp-server's own
 * test certificate has expired); null where openssl is missing, and the built-in one serves.
 */
function selfSignedCertificate(): { key: string; cert: string } | null {
  if (certificate !== undefined) return certificate;
  const dir = mkdtempSync(path.join(tmpdir(), 'reshelf-smtp-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
        '-subj',
        '/CN=localhost',
        '-days',
        '2',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    certificate = {
      key: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } catch {
    certificate = null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return certificate;
}

/** A header as it was written, its folded lines joined ("" when absent). */
export function rawHeader(mail: ReceivedMail, name: string): string | undefined {
  const line = mail.parsed.headerLines.find((header) => header.key === name.toLowerCase())?.line;
  return line?.replace(/\r?\n[ \t]+/g, ' ').replace(/^[^:]+:\s*/, '');
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const login = options.login ?? { user: 'postman', password: 'p@ss word/1' };
  const received: ReceivedMail[] = [];
  const serverOptions: SMTPServerOptions = {
    secure: options.secure ?? false,
    ...(selfSignedCertificate() ?? {}),
    ...(options.noSTARTTLS ? { disabledCommands: ['STARTTLS'] } : {}),
    authMethods: ['PLAIN', 'LOGIN'],
    // Logging in is offered over TLS only, as a real server does.
    allowInsecureAuth: false,
    authOptional: true,
    disableReverseLookup: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === login.user && auth.password === login.password) {
        callback(null, { user: auth.username });
      } else {
        callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      }
    },
    onRcptTo(address, _session, callback) {
      if (options.rejectRecipients?.includes(address.address)) {
        callback(Object.assign(new Error(`No such mailbox: ${address.address}`), { responseCode: 550 }));
      } else {
        callback();
      }
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (options.failData) {
          callback(
            Object.assign(new Error(options.failData.message), { responseCode: options.failData.code }),
          );
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((parsed) => {
            received.push({
              mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
              rcptTo: session.envelope.rcptTo.map((address) => address.address),
              tls: Boolean(session.secure),
              user: typeof session.user === 'string' ? session.user : null,
              raw,
              parsed,
            });
            callback();
          })
          .catch((error: Error) => callback(error));
      });
    },
  };
  const server = new SMTPServer(serverOptions);
  // The built-in certificate is announced on stderr once per server; it is meant for tests.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.on('error', () => {});
  const port = (server.server.address() as { port: number }).port;
  const scheme = options.secure ? 'smtps' : 'smtp'; // check-plurals: a URL scheme, not a count
  const credentials = `${encodeURIComponent(login.user)}:${encodeURIComponent(login.password)}`;
  return {
    port,
    url: `${scheme}://${credentials}@127.0.0.1:${port}?tls.rejectUnauthorized=false`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
