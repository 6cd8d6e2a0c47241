import { NATIVE_SHELL_PADDING } from '@reshelf/contracts';

/** Capacitor's platform names: the browser is "web"; the native shell is "ios" or "android". */
export type ShellPlatform = 'web' | 'ios' | 'android';

export interface ShellPadding {
  top: number;
  bottom: number;
}

/**
 * Room kept for the status bar and the bottom safe area (spec section 9): inside the native shell,
 * 44 px top and 34 px bottom on iOS, 24 px top and 0 bottom on any other platform; none on the web.
 */
export function shellPadding(platform: string): ShellPadding {
  if (platform === 'web') return { top: 0, bottom: 0 };
  const padding = platform === 'ios' ? NATIVE_SHELL_PADDING.ios : NATIVE_SHELL_PADDING.other;
  return { top: padding.top, bottom: padding.bottom };
}
