import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { invalidParameter } from '@hearth/contract';
import { guardedLookup, isInternalAddress } from '../../platform/outbound';

export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
  /** Allow loopback and private addresses (tests and local development only). */
  allowPrivate: boolean;
}

const refuse = (reason: string) => invalidParameter('url', reason);

/**
 * Fetches an icon from an http(s) address with a size and time limit. Unless `allowPrivate`, every address the
 * host resolves to is checked at connect time (so DNS rebinding cannot slip through) and internal addresses are
 * refused. Redirects are not followed.
 */
export function fetchIcon(address: string, limits: FetchLimits): Promise<string> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw refuse('Not a valid address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse('Only http and https addresses are allowed');
  if (url.username || url.password) throw refuse('Addresses with credentials are not allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!limits.allowPrivate && isIP(host) !== 0 && isInternalAddress(host)) throw refuse('Internal addresses are not allowed');
  const checkedLookup = guardedLookup(limits.allowPrivate);
  return new Promise<string>((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const request = client.get(
      url,
      {
        lookup: checkedLookup as never,
        headers: { accept: 'image/svg+xml, text/xml;q=0.9, */*;q=0.1', 'user-agent': 'Hearth-Icons/1' },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          response.destroy();
          return reject(refuse(`The address redirects (${status}); give the final address`));
        }
        if (status !== 200) {
          response.destroy();
          return reject(refuse(`The address answered ${status}`));
        }
        const declared = Number(response.headers['content-length']);
        if (declared > limits.maxBytes) {
          response.destroy();
          return reject(refuse(`The icon is larger than ${limits.maxBytes / 1024} KB`));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > limits.maxBytes) {
            response.destroy();
            reject(refuse(`The icon is larger than ${limits.maxBytes / 1024} KB`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        response.on('close', () => {
          if (!response.complete) reject(refuse('Could not fetch the icon: the connection closed early'));
        });
      },
    );
    // The whole fetch, not just each idle gap, is bounded: a server dripping bytes is cut off too.
    const timer = setTimeout(() => {
      reject(refuse(`Could not fetch the icon: no answer within ${limits.timeoutMs} ms`));
      request.destroy();
    }, limits.timeoutMs);
    request.on('close', () => clearTimeout(timer));
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EINTERNAL') reject(refuse('Internal addresses are not allowed'));
      else reject(refuse(`Could not fetch the icon: ${error.code ?? error.message}`));
    });
  });
}
