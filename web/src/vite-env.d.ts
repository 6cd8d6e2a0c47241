/// <reference types="vite/client" />

interface ImportMetaEnv {
  /**
   * Origin of the API, e.g. "https://api.reshelf.co.uk". Leave unset on the web, where the API is
   * served from the same origin (or proxied by the dev server); the native app sets it.
   */
  readonly VITE_API_ORIGIN?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
