// The seed-openlibrary-recent Edge Function's entry point (supabase functions deploy seed-openlibrary-recent).
import { handler } from './handler.ts';

Deno.serve(handler);
