/**
 * Which kind of session this copy of the web client uses (decision 0029). Inside the native
 * shell (Capacitor.isNativePlatform(), the signal the real app gives) it holds bearer tokens,
 * kept with Capacitor Preferences (the platform's app-private storage: UserDefaults on iOS,
 * SharedPreferences on Android); in a browser the BFF's httpOnly cookies hold the session and
 * this is null.
 */
import { Preferences } from '@capacitor/preferences';
import { apiUrl } from './api.ts';
import { BearerSession, type TokenStore } from './bearer-session.ts';
import { isNativeShell } from './native-shell.ts';
import { APP_CLIENT, refreshOverHttp } from './session-link.ts';

const preferences: TokenStore = {
  async get(key) {
    return (await Preferences.get({ key })).value;
  },
  set: (key, value) => Preferences.set({ key, value }),
  remove: (key) => Preferences.remove({ key }),
};

let session: BearerSession | null | undefined;

/** The app's bearer session inside the native shell; null in a browser. */
export function appSession(): BearerSession | null {
  if (session === undefined) {
    session = isNativeShell()
      ? new BearerSession({ store: preferences, refresh: refreshOverHttp(apiUrl('/trpc')) })
      : null;
  }
  return session;
}

/** The client header's value: "app" gets tokens from sign-in, "web" gets cookies. */
export function clientKind(): 'web' | typeof APP_CLIENT {
  return appSession() ? APP_CLIENT : 'web';
}
