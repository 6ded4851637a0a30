import dns from 'node:dns';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

let installed = false;

/**
 * Makes this process resolve every `*.localhost` name to 127.0.0.1, as browsers do (RFC 6761) but this machine's
 * resolver does not: relay origins (`<hubId>.connect.localhost`) then work for Node's fetch and WebSocket clients
 * in tests, unchanged. Other names resolve as before.
 */
export function resolveLocalhostNames(): void {
  if (installed) return;
  installed = true;
  const original = dns.lookup;
  const patched = (hostname: string, options: unknown, callback?: LookupCallback) => {
    const done = (typeof options === 'function' ? options : callback) as LookupCallback;
    const opts = (typeof options === 'object' && options !== null ? options : {}) as dns.LookupOptions;
    if (!/\.localhost\.?$/i.test(hostname)) return (original as (...args: unknown[]) => void)(hostname, options, callback);
    if (opts.all) process.nextTick(done, null, [{ address: '127.0.0.1', family: 4 }]);
    else process.nextTick(done, null, '127.0.0.1', 4);
  };
  (dns as { lookup: unknown }).lookup = patched;
}
