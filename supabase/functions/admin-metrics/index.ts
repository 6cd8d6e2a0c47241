// The admin-metrics Edge Function's entry point (supabase functions deploy admin-metrics).
import { handler } from './handler.ts';

Deno.serve(handler);
