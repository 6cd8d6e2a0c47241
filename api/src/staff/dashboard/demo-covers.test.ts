/** The generated demo covers: wrapping, colours by genre, keys by content, and real WebP images. */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  CATEGORY_COLOURS,
  COVER_HEIGHT,
  COVER_WIDTH,
  coverColour,
  coverKeys,
  coverSvg,
  GENRE_COLOURS,
  renderCover,
  wrapText,
} from './demo-covers.ts';

const spec = {
  title: 'The Thursday Murder Club',
  authors: ['Richard Osman'],
  label: 'Cosy crime',
  colour: coverColour('cosy-crime', 'crime-thriller'),
};

describe('demo covers', () => {
  it('wraps words into lines, breaks only a word longer than a line, and cuts with an ellipsis', () => {
    expect(wrapText('The Thursday Murder Club', 12, 5)).toEqual(['The Thursday', 'Murder Club']);
    expect(wrapText('Supercalifragilistic', 8, 5)).toEqual(['Superca-', 'lifragi-', 'listic']);
    expect(wrapText('one two three four five six', 7, 2)).toEqual(['one two', 'three…']);
  });

  it('colours a book by its genre, else its shelf, else a default', () => {
    expect(coverColour('cosy-crime', 'fiction')).toBe(GENRE_COLOURS['cosy-crime']);
    expect(coverColour(null, 'cookery')).toBe(CATEGORY_COLOURS.cookery);
    expect(coverColour('unknown', null)).toEqual({ bg: '#22304a', band: '#e8b04b' });
    // Each genre has a colour of its own.
    expect(new Set(Object.values(GENRE_COLOURS).map((colour) => colour.bg)).size).toBe(
      Object.keys(GENRE_COLOURS).length,
    );
  });

  it('draws the title, author and genre, escaped, without breaking a word that fits smaller', () => {
    const svg = coverSvg({ ...spec, title: 'Harry Potter and the Philosopher’s Stone & <More>' });
    expect(svg).toContain('COSY CRIME');
    expect(svg).toContain('Richard Osman');
    expect(svg).toContain('&#38; &#60;More&#62;');
    expect(svg).toContain('Philosopher’s');
    expect(svg).not.toMatch(/Philosoph[a-z’]*-</);
  });

  it('names a cover by what is drawn, in the two photo sizes', () => {
    const keys = coverKeys(spec);
    expect(keys.large).toMatch(/^demo-covers\/[0-9a-f]{16}\/1600\.webp$/);
    expect(keys.thumb).toBe(keys.large.replace('1600.webp', '400.webp'));
    expect(coverKeys({ ...spec })).toEqual(keys);
    expect(coverKeys({ ...spec, title: 'Another Title' }).large).not.toBe(keys.large);
  });

  it('renders WebP at 600×800 and 300×400 with the genre colour behind the text', async () => {
    const cover = await renderCover(spec);
    expect(await sharp(cover.large).metadata()).toMatchObject({
      format: 'webp',
      width: COVER_WIDTH,
      height: COVER_HEIGHT,
    });
    expect(await sharp(cover.thumb).metadata()).toMatchObject({ format: 'webp', width: 300, height: 400 });
    // A pixel of open cloth, right of centre near the bottom, is the genre's colour (±sheen).
    const { data } = await sharp(cover.large)
      .extract({ left: 450, top: 600, width: 1, height: 1 })
      .raw()
      .toBuffer({
        resolveWithObject: true,
      });
    const hex = spec.colour.bg.slice(1);
    const expected = [0, 2, 4].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
    for (const [i, channel] of expected.entries()) expect(Math.abs(data[i]! - channel)).toBeLessThan(40);
  });
});
