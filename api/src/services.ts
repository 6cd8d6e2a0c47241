/** The backend adapters for a configuration (brief §2: one port, two adapters each). */
import path from 'node:path';
import type { AppConfig } from './config.ts';
import type { DatabaseHandle } from './db/index.ts';
import {
  type BookLookupPort,
  createOfflineBookLookup,
  createOpenLibraryLookup,
} from './platform/book-lookup/book-lookup.ts';
import { type CarrierProvider, createCarrierProvider } from './platform/carriers/index.ts';
import { createLocalIdentity } from './platform/identity/local.ts';
import type { IdentityProvider } from './platform/identity/port.ts';
import { createMailer, type Mailer } from './platform/mail/mailer.ts';
import {
  createDevTransport,
  createResendTransport,
  createSmtpTransport,
  type MailTransport,
} from './platform/mail/transports.ts';
import type { PaymentProvider } from './platform/payments/port.ts';
import { createStripeProvider } from './platform/payments/stripe-provider.ts';
import { createTestProvider } from './platform/payments/test-provider.ts';
import {
  createInProcessFunctions,
  type ServerFunctions,
} from './platform/server-functions/server-functions.ts';
import { createEmbeddedStorage } from './platform/storage/embedded.ts';
import type { StoragePort } from './platform/storage/port.ts';
import type { Secrets } from './secrets.ts';
import { SNAPSHOT_BOOKS } from './seed/books.ts';

export interface Services {
  identity: IdentityProvider;
  mailer: Mailer;
  functions: ServerFunctions;
  /** Photos and other files (brief §2: local disk, or Supabase Storage). */
  storage: StoragePort;
  /** Book details by ISBN beyond our catalogue (Open Library when online, else nothing). */
  bookLookup: BookLookupPort;
  payments: PaymentProvider;
  /** Parcel labels, drop-off points and scans (decision 0083): the test carrier or EasyPost. */
  carriers: CarrierProvider;
  /**
   * Hosted backend: the server functions for callers with a personal API token, which an Edge
   * Function cannot verify. The same shared SQL, run in-process (decision 0014).
   */
  functionsForApiTokens?: ServerFunctions;
}

export function createPaymentProvider(config: AppConfig, secrets: Secrets): PaymentProvider {
  return config.payments.provider === 'stripe'
    ? createStripeProvider({
        secretKey: config.payments.secretKey,
        webhookSecret: config.payments.webhookSecret,
        ...(config.payments.connectWebhookSecret
          ? { connectWebhookSecret: config.payments.connectWebhookSecret }
          : {}),
      })
    : createTestProvider({ secrets });
}

/** The transport MAIL names (decision 0028). */
export function createMailTransport(config: AppConfig): MailTransport {
  switch (config.mail.transport) {
    case 'smtp':
      return createSmtpTransport({ url: config.mail.smtpUrl });
    case 'resend':
      return createResendTransport({ apiKey: config.mail.resendApiKey });
    default:
      return createDevTransport();
  }
}

export async function createServices(
  config: AppConfig,
  database: DatabaseHandle,
  secrets: Secrets,
): Promise<Services> {
  const mailer = createMailer({
    db: database.db,
    transport: createMailTransport(config),
    from: config.mail.from,
    secrets,
    origin: config.siteOrigin,
  });
  const bookLookup =
    config.bookLookup === 'openlibrary' ? createOpenLibraryLookup() : createOfflineBookLookup();
  if (config.backend === 'supabase') {
    const supabase = config.supabase;
    if (!supabase)
      throw new Error('BACKEND=supabase needs SUPABASE_URL, SUPABASE_ANON_KEY and SUPABASE_SERVICE_ROLE_KEY');
    // Loaded only in hosted mode: supabase-js is large and warns about Node 20 on import.
    const [{ createSupabaseIdentity }, { createEdgeFunctions }, { createSupabaseStorage }] =
      await Promise.all([
        import('./platform/identity/supabase.ts'),
        import('./platform/server-functions/edge-functions.ts'),
        import('./platform/storage/supabase.ts'),
      ]);
    return {
      mailer,
      identity: createSupabaseIdentity({ ...supabase, db: database.db }),
      functions: createEdgeFunctions({ url: supabase.url, serviceRoleKey: supabase.serviceRoleKey }),
      functionsForApiTokens: createInProcessFunctions(database.pool, { snapshot: SNAPSHOT_BOOKS }),
      payments: createPaymentProvider(config, secrets),
      carriers: createCarrierProvider(config, secrets),
      storage: createSupabaseStorage({
        url: supabase.url,
        serviceRoleKey: supabase.serviceRoleKey,
        bucket: config.storageBucket,
        privateBucket: config.storagePrivateBucket,
      }),
      bookLookup,
    };
  }
  return {
    mailer,
    identity: createLocalIdentity({ db: database.db, secrets, mailer }),
    functions: createInProcessFunctions(database.pool, { snapshot: SNAPSHOT_BOOKS }),
    payments: createPaymentProvider(config, secrets),
    carriers: createCarrierProvider(config, secrets),
    storage: createEmbeddedStorage(path.join(config.dataDir, 'storage')),
    bookLookup,
  };
}
