/**
 * Wakes this BFF instance's sender the moment a message is queued: the outbox's insert
 * trigger NOTIFYs `reshelf_mail` when the inserting transaction commits, and every instance
 * LISTENs. All of them wake; the claim (FOR UPDATE SKIP LOCKED) gives each row to one. After
 * a lost connection the listener reconnects and drains once, in case it missed a wake-up; the
 * job runner's `mail.deliver` covers retries that come due later.
 */
import type { DatabaseHandle } from '../../db/index.ts';
import type { Mailer } from './mailer.ts';

export const MAIL_CHANNEL = 'reshelf_mail';
const LISTEN_RETRY_MS = 5_000;

export interface MailDelivery {
  /** Drains the outbox now (as a NOTIFY does). */
  wake(): void;
  /** Resolves once no drain is running or asked for: tests await it instead of polling. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export async function startMailDelivery(
  database: Pick<DatabaseHandle, 'listen'>,
  mailer: Mailer,
  log: (message: string, error?: unknown) => void,
): Promise<MailDelivery> {
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = false;

  const wake = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          await mailer.deliver({ log });
        } catch (error) {
          log('mail delivery failed; the job runner will try again', error);
        }
      } while (again && !stopped);
    })().finally(() => {
      running = undefined;
    });
  };

  // A BFF starts while its database is down (it answers /readyz 503 meanwhile): it listens
  // once the database answers, and drains then.
  let stopListening: (() => Promise<void>) | undefined;
  let retry: NodeJS.Timeout | undefined;
  const listen = async (): Promise<void> => {
    try {
      const stop = await database.listen(MAIL_CHANNEL, wake, wake);
      if (stopped) await stop();
      else stopListening = stop;
    } catch (error) {
      if (stopped) return;
      log(`mail wake-ups: cannot LISTEN yet (trying again in ${LISTEN_RETRY_MS / 1000} s)`, error);
      retry = setTimeout(() => void listen(), LISTEN_RETRY_MS);
      retry.unref();
    }
  };
  await listen();
  return {
    wake,
    async idle() {
      while (running) await running;
    },
    async stop() {
      stopped = true;
      clearTimeout(retry);
      await stopListening?.();
      while (running) await running;
    },
  };
}
