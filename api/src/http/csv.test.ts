/**
 * The one CSV writer (http/csv.ts): formula prefixes neutralised in text, never in numbers;
 * RFC 4180 quoting; the same bytes streamed or at once; and no other file writing CSV.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { csvCells, HOSTILE_CSV_CELLS, runnableCells } from '../testing/csv.ts';
import { csvStream, csvText, excelLiteral, neutralise, pounds, readBackCell } from './csv.ts';

const cell = (value: Parameters<typeof csvText>[1] extends Iterable<infer R> ? R[keyof R] : never) =>
  csvText(['v'], [{ v: value }]).split('\r\n')[1];

async function collect(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  await pipeline(
    stream,
    new Writable({
      write(chunk, _encoding, done) {
        text += chunk.toString('utf8');
        done();
      },
    }),
  );
  return text;
}

describe('formula prefixes', () => {
  it('puts a quote mark before text starting with = + - @, a tab or a carriage return', () => {
    expect(cell('=HYPERLINK("http://evil","x")')).toBe(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(cell('@SUM(1)')).toBe("'@SUM(1)");
    expect(cell('+44 1295 000000')).toBe("'+44 1295 000000");
    expect(cell('-2+3+cmd')).toBe("'-2+3+cmd");
    expect(cell('\t=1+1')).toBe("'\t=1+1");
    expect(cell('\r=1+1')).toBe(`"'\r=1+1"`);
    // The full-width forms some spreadsheets also take for the operators.
    expect(cell('＝1+1')).toBe("'＝1+1");
    expect(cell('＠SUM(1)')).toBe("'＠SUM(1)");
  });

  it('neutralises every hostile cell of the issue-33 probe, and the small forms of = + - @', () => {
    for (const hostile of HOSTILE_CSV_CELLS)
      expect(csvCells(csvText(['v'], [{ v: hostile }]))[1]).toEqual([`'${hostile}`]);
    for (const small of ['\uFE62', '\uFE63', '\uFE66', '\uFE6B'])
      expect(neutralise(`${small}1+1`)).toBe(`'${small}1+1`);
    // The payout statement's own writer let text starting with a minus and a digit through.
    expect(cell(`-1+1+cmd|' /C calc'!A0`)).toBe(`'-1+1+cmd|' /C calc'!A0`);
  });

  it('leaves other text alone, a formula character later on included', () => {
    expect(cell('plain')).toBe('plain');
    expect(cell('buyer@reshelf.test')).toBe('buyer@reshelf.test');
    expect(cell('1+1')).toBe('1+1');
    expect(cell(' =not at the start')).toBe(' =not at the start');
    expect(cell('')).toBe('');
  });

  it('treats text that looks like a negative number as text: only a number is a number', () => {
    expect(cell('-3.50')).toBe("'-3.50");
    expect(neutralise('-3.50')).toBe("'-3.50");
  });

  it('leaves numbers as numbers, negative ones and money in pounds included', () => {
    expect(cell(-150)).toBe('-150');
    expect(cell(2.5)).toBe('2.5');
    expect(cell(0)).toBe('0');
    expect(cell(pounds(-350))).toBe('-3.50');
    expect(cell(pounds(-5))).toBe('-0.05');
    expect(cell(pounds(123456))).toBe('1234.56');
    expect(cell(pounds(0))).toBe('0.00');
    expect(cell(pounds(null))).toBe('');
    expect(cell(12n)).toBe('12');
  });

  it('refuses cells it cannot write honestly', () => {
    expect(() => cell(Number.NaN)).toThrow(/finite/);
    expect(() => cell(Number.POSITIVE_INFINITY)).toThrow(/finite/);
    expect(() => pounds(1.5)).toThrow(/whole pence/);
    expect(() => csvText(['v'], [{ v: { evil: true } as never }])).toThrow(/a cell must be/);
  });

  it('takes its own quote mark off a cell read back, and nothing else', () => {
    for (const text of ['- slight foxing', '=1+1', '@SUM(1)', '+44', '\tx', 'plain', "'quoted", "don't"]) {
      const written = csvText(['v'], [{ v: text }]);
      const [read] = parse(written, { columns: true }) as { v: string }[];
      expect(readBackCell(read!.v)).toBe(text);
    }
    expect(readBackCell("'plain")).toBe("'plain");
  });
});

describe('the file', () => {
  it('has a header, CRLF line ends, and quotes fields with commas, quotes and line breaks', () => {
    expect(
      csvText(
        ['title', 'price', 'sold', 'at', 'note'],
        [
          {
            title: 'Smith, J.',
            price: pounds(450),
            sold: true,
            at: new Date('2026-01-02T03:04:05Z'),
            note: null,
          },
          { title: 'The "Best" Book', price: pounds(-350), sold: false, at: null, note: 'two\nlines' },
          { title: 'carriage\rreturn', price: undefined, sold: false, at: null, note: 'x' },
        ],
      ),
    ).toBe(
      'title,price,sold,at,note\r\n' +
        '"Smith, J.",4.50,true,2026-01-02T03:04:05.000Z,\r\n' +
        '"The ""Best"" Book",-3.50,false,,"two\nlines"\r\n' +
        '"carriage\rreturn",,false,,x\r\n',
    );
  });

  it('starts with a byte-order mark when asked (spreadsheets then read UTF-8: £, accents)', () => {
    expect(csvText(['a'], [{ a: '£1' }], { bom: true })).toBe('\uFEFFa\r\n£1\r\n');
  });

  it('streams the same bytes as it writes at once, from an async source', async () => {
    const rows = [
      { title: '=HYPERLINK("http://evil","x")', amount: pounds(-350) },
      { title: 'Middlemarch', amount: pounds(1250) },
    ];
    async function* source() {
      yield* rows;
    }
    expect(await collect(csvStream(['title', 'amount'], source(), { bom: true }))).toBe(
      csvText(['title', 'amount'], rows, { bom: true }),
    );
  });

  it('stops reading its source when the reader goes away, and fails when the source fails', async () => {
    let produced = 0;
    let closed = false;
    async function* endless() {
      try {
        for (;;) {
          produced += 1;
          yield { n: produced };
        }
      } finally {
        closed = true;
      }
    }
    const stream = csvStream(['n'], endless());
    await new Promise<void>((resolve) => stream.once('data', () => resolve()));
    stream.destroy();
    await expect.poll(() => closed).toBe(true);
    expect(produced).toBeLessThan(100_000);

    async function* broken() {
      yield { n: 1 };
      throw new Error('the database went away');
    }
    await expect(collect(csvStream(['n'], broken()))).rejects.toThrow('the database went away');
  });
});

describe('one writer', () => {
  const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
  const WRITER = 'api/src/http/csv.ts';

  function sources(dir: string): string[] {
    const found: string[] = [];
    for (const entry of readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (['node_modules', 'dist', '.artifacts'].includes(entry.name) || entry.name.startsWith('.'))
          continue;
        found.push(...sources(relative));
      } else if (/\.(m?[jt]sx?|cjs)$/.test(entry.name)) {
        found.push(relative);
      }
    }
    return found;
  }

  it('is the only file that imports csv-stringify, and the hand-written writer is gone', () => {
    const files = ['api', 'web', 'packages', 'tests', 'scripts', 'supabase'].flatMap(sources);
    expect(files.length).toBeGreaterThan(100);
    const importers = files.filter((file) =>
      /(?:from\s+|import\s*\(\s*|require\s*\(\s*)['"]csv-stringify(?:\/[^'"]*)?['"]/.test(
        readFileSync(path.join(ROOT, file), 'utf8'),
      ),
    );
    expect(importers).toEqual([WRITER]);
    expect(files).not.toContain('api/src/staff/ops/csv.ts');
  });
});

describe('Goodreads ISBN cells', () => {
  it('are written ="…" around digits only, and nothing else can be written through them', () => {
    const csv = csvText(['ISBN', 'ISBN13'] as const, [
      { ISBN: excelLiteral('014143951X'), ISBN13: excelLiteral(null) },
    ]);
    expect(csvCells(csv)[1]).toEqual(['="014143951X"', '=""']);
    expect(runnableCells(csv)).toEqual([]);
    expect(() => excelLiteral('1"+HYPERLINK("x")')).toThrow(TypeError);
  });
});
