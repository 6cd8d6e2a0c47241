import { ADMIN_SIDEBAR } from '@reshelf/contracts';
import { describe, expect, it } from 'vitest';
import { isShortcut, readSidebarOpen, sidebarCookie } from './sidebar-state.ts';

describe('sidebar state', () => {
  it('reads the remembered state among other cookies', () => {
    expect(readSidebarOpen('')).toBeNull();
    expect(readSidebarOpen('a=1; sidebar_state=false; b=2')).toBe(false);
    expect(readSidebarOpen('sidebar_state=true')).toBe(true);
    expect(readSidebarOpen('sidebar_state=maybe')).toBeNull();
    expect(readSidebarOpen('my_sidebar_state=false')).toBeNull();
  });

  it('keeps it for 7 days', () => {
    expect(ADMIN_SIDEBAR.cookieMaxAgeSeconds).toBe(604_800);
    expect(sidebarCookie(false)).toBe('sidebar_state=false; path=/; max-age=604800; samesite=lax');
  });

  it('answers Ctrl+B and Cmd+B, not B or Ctrl+Alt+B', () => {
    const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey', boolean>> = {}) => ({
      key: k,
      ctrlKey: false,
      metaKey: false,
      altKey: false,
      ...mods,
    });
    expect(isShortcut(key('b', { ctrlKey: true }), 'b')).toBe(true);
    expect(isShortcut(key('B', { metaKey: true }), 'b')).toBe(true);
    expect(isShortcut(key('b'), 'b')).toBe(false);
    expect(isShortcut(key('b', { ctrlKey: true, altKey: true }), 'b')).toBe(false);
    expect(isShortcut(key('k', { ctrlKey: true }), 'b')).toBe(false);
  });
});
