// The admin-cleanup-listings Edge Function's entry point (supabase functions deploy admin-cleanup-listings).
import { handler } from './handler.ts';

Deno.serve(handler);
