/**
 * The hybrid native shell (Capacitor). The same build runs in the browser and in the app; only
 * the platform differs. The page's padding for the status bar and bottom safe area is set once
 * at start as CSS variables on <html> (`--shell-top`, `--shell-bottom`), which styles.css applies
 * to the body and fixed overlays add to their offsets.
 */
import { Capacitor } from '@capacitor/core';
import { shellPadding } from './shell-padding.ts';

export function currentPlatform(): string {
  return Capacitor.getPlatform();
}

export function isNativeShell(): boolean {
  return Capacitor.isNativePlatform();
}

export function applyShellPadding(
  root: HTMLElement = document.documentElement,
  platform = currentPlatform(),
): void {
  const { top, bottom } = shellPadding(platform);
  root.dataset.platform = platform;
  root.style.setProperty('--shell-top', `${top}px`);
  root.style.setProperty('--shell-bottom', `${bottom}px`);
}
