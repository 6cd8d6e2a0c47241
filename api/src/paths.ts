/**
 * Where the files the server reads at run time live, from one place. This module is two folders
 * below the repository root (api/src/paths.ts), and so is the compiled server that bundles it
 * (api/dist/main.js, api/dist/ops.js): REPO_ROOT is the same directory either way, and every
 * other module finds its files from here rather than from its own import.meta.url, which in the
 * bundle is the bundle's. api/scripts/build.mjs refuses a module that does otherwise.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** supabase/migrations: applied at start (embedded backend) and counted by the health panel. */
export const MIGRATIONS_DIR = path.join(REPO_ROOT, 'supabase/migrations');

/** The auth schema's shapes a plain PostgreSQL lacks (embedded backend), run before migrations. */
export const BOOTSTRAP_AUTH_SQL = path.join(REPO_ROOT, 'api/src/db/bootstrap-auth.sql');

/** The demo seed's site pages (development only). */
export const SITE_PAGES_DIR = path.join(REPO_ROOT, 'api/src/seed/pages');
