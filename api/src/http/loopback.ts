/**
 * Whether a request comes from this machine: its address (request.ip, which believes
 * X-Forwarded-For only from the proxies TRUST_PROXY names) is a loopback one, 127.0.0.0/8 or
 * ::1, written as IPv4 or IPv4-mapped IPv6. What only the developer at the keyboard may reach
 * (the development mailbox) asks this.
 */
import { isIP } from 'node:net';

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const ip = address.toLowerCase().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
  if (isIP(ip) === 4) return ip.startsWith('127.');
  return ip === '::1' || ip === '0:0:0:0:0:0:0:1';
}

/** The paths of the development pages (the mailbox): for loopback clients outside production only. */
export function isDevPagePath(path: string): boolean {
  return path === '/dev' || path.startsWith('/dev/');
}
