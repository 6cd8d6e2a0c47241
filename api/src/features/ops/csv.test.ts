import { describe, expect, it } from 'vitest';
import { csvField, toCsv } from './csv.ts';

describe('CSV', () => {
  it('quotes fields with commas, quotes and line breaks', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('Smith, J.')).toBe('"Smith, J."');
    expect(csvField('The "Best" Book')).toBe('"The ""Best"" Book"');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('defuses text a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField('+44')).toBe("'+44");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    // Numbers stay numbers, negative ones included.
    expect(csvField(-150)).toBe('-150');
  });

  it('writes a header and one CRLF line per row, empty for null', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          { a: 1, b: null },
          { a: 2, b: 'x' },
        ],
      ),
    ).toBe('a,b\r\n1,\r\n2,x\r\n');
  });
});
