import { describe, expect, it } from 'vitest';
import { localAddress } from './HubAPI';

describe('HubAPI.local addresses', () => {
  it('takes an address as people type it, assuming http:// when no scheme is given', () => {
    expect(localAddress('192.168.1.10')).toBe('http://192.168.1.10');
    expect(localAddress('hub.local:4100')).toBe('http://hub.local:4100');
    expect(localAddress('https://hub.example/')).toBe('https://hub.example');
    expect(localAddress('http://127.0.0.1:4100')).toBe('http://127.0.0.1:4100');
  });

  it('refuses what is not an address, saying what it expects', () => {
    for (const bad of ['ftp://hub.local', 'http://', 'http://exa mple']) {
      expect(() => localAddress(bad)).toThrow(/Invalid Parameter: address\. Expected a hub's address such as 192\.168\.1\.10/);
    }
  });
});
