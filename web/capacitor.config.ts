import type { CapacitorConfig } from '@capacitor/cli';

const config: CapacitorConfig = {
  appId: 'uk.co.reshelf.app',
  appName: 'Reshelf',
  webDir: 'dist',
};

export default config;
