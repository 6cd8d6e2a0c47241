import { parseOptions } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import {
  checkPassword,
  hashPassword,
  needsRehash,
  OWASP_ARGON2ID,
  PASSWORD_WORK_CONCURRENCY,
  passwordWork,
} from './passwords.ts';

// bcrypt hashes of 'correct-horse-battery' as bcryptjs wrote them ($2b$, cost 4 and 10) and of
// 'reshelf-demo' with the older $2a$ prefix.
const BCRYPT_2B_4 = '$2b$04$FzdOmE3y3ejRIPTmxqdpeulgVrXhwARnrNiA4woHgYHsJvsGbzAlm';
const BCRYPT_2B_10 = '$2b$10$27ddTOLL62rnhjDTtnswPOlF1lmwKFgKyv6Am9hj98Ca3pX9rywKC';
const BCRYPT_2A_4 = '$2a$04$5Pyq8wNmYEBxp3UBMMigbe18I6ciwijiGI2vTU697CeRkT/J6xCn.';

describe('password hashing', () => {
  it('hashes with argon2id at OWASP parameters (19 MiB, 2 passes, 1 lane)', async () => {
    const hashed = await hashPassword('correct-horse-battery');
    expect(hashed.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
    expect(parseOptions(hashed)).toMatchObject({ memoryCost: 19 * 1024, timeCost: 2, parallelism: 1 });
    expect(await checkPassword('correct-horse-battery', hashed)).toEqual({ matches: true, rehash: false });
    expect(await checkPassword('wrong-horse-battery', hashed)).toEqual({ matches: false, rehash: false });
  });

  it('checks old bcrypt hashes and asks for a rehash only when the password matched', async () => {
    expect(await checkPassword('correct-horse-battery', BCRYPT_2B_4)).toEqual({
      matches: true,
      rehash: true,
    });
    expect(await checkPassword('correct-horse-battery', BCRYPT_2B_10)).toEqual({
      matches: true,
      rehash: true,
    });
    expect(await checkPassword('reshelf-demo', BCRYPT_2A_4)).toEqual({ matches: true, rehash: true });
    expect(await checkPassword('wrong', BCRYPT_2B_10)).toEqual({ matches: false, rehash: false });
  });

  it('asks for a rehash of argon2 made with other parameters', async () => {
    const cheap = await hashPassword('pw', { memoryCost: 1024, timeCost: 1, parallelism: 1 });
    expect(needsRehash(cheap)).toBe(true);
    expect(needsRehash(cheap, { memoryCost: 1024, timeCost: 1, parallelism: 1 })).toBe(false);
    expect(await checkPassword('pw', cheap)).toEqual({ matches: true, rehash: true });
    expect(needsRehash(BCRYPT_2B_10)).toBe(true);
  });

  it('matches nothing against no hash or a hash it does not know, and still does the work', async () => {
    const before = passwordWork.stats().started;
    expect(await checkPassword('anything', null)).toEqual({ matches: false, rehash: false });
    expect(await checkPassword('anything', 'plain-text')).toEqual({ matches: false, rehash: false });
    expect(await checkPassword('anything', '$argon2id$garbage')).toEqual({ matches: false, rehash: false });
    expect(passwordWork.stats().started - before).toBeGreaterThanOrEqual(3);
  });

  it('runs at most PASSWORD_WORK_CONCURRENCY hashes at once, the rest in line, off the event loop', async () => {
    passwordWork.resetStats();
    const started = passwordWork.stats().started;
    let finished = 0;
    const checks = Array.from({ length: 8 }, (_, i) =>
      checkPassword(`guess-${i}`, BCRYPT_2B_10).then((result) => {
        finished += 1;
        return result;
      }),
    );
    // The loop goes round while they run: on the thread pool, not on this thread (bcryptjs held
    // the loop for a whole hash, so this ran only after the first one or more had finished).
    const finishedAtNextTurn = await new Promise<number>((resolve) => setImmediate(() => resolve(finished)));
    const results = await Promise.all(checks);
    expect(finishedAtNextTurn).toBe(0);
    expect(results.every((result) => !result.matches)).toBe(true);
    expect(passwordWork.stats().started - started).toBe(8);
    expect(passwordWork.stats().maxActive).toBeLessThanOrEqual(PASSWORD_WORK_CONCURRENCY);
    expect(PASSWORD_WORK_CONCURRENCY).toBeGreaterThanOrEqual(1);
  });

  it('uses OWASP parameters by default', () => {
    expect(OWASP_ARGON2ID).toEqual({ memoryCost: 19456, timeCost: 2, parallelism: 1 });
  });
});
