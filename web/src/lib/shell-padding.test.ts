import { describe, expect, it } from 'vitest';
import { shellPadding } from './shell-padding.ts';

describe('shellPadding', () => {
  it('pads 44 px top and 34 px bottom on ios', () => {
    expect(shellPadding('ios')).toEqual({ top: 44, bottom: 34 });
  });

  it('pads 24 px top and 0 bottom on android', () => {
    expect(shellPadding('android')).toEqual({ top: 24, bottom: 0 });
  });

  it('pads 24 px top and 0 bottom on any other native platform', () => {
    expect(shellPadding('electron')).toEqual({ top: 24, bottom: 0 });
  });

  it('does not pad the web', () => {
    expect(shellPadding('web')).toEqual({ top: 0, bottom: 0 });
  });
});
