// Types of first-load-js.mjs, for the web's build (web/vite.config.ts) and its test.
export declare const HOME_PAGE: string;
export declare const MAX_MODULEPRELOADS: number;
export declare const FIRST_LOAD_TARGET_KIB: number;
export declare const FIRST_LOAD_BUDGET_KIB: number;
interface Size {
  raw: number;
  gzip: number;
  files: { file: string; kib: number }[];
}
export declare function measure(dist: string, page?: string): { entry: Size; first: Size };
export declare function modulepreloads(dist: string): string[];
export declare function overBudget(dist: string, options?: { page?: string; budgetKib?: number }): string[];
