/** The part of http_ece (Encrypted Content-Encoding, RFC 8188; it ships no types) the push tests decrypt with. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  interface DecryptParams {
    version: 'aes128gcm';
    /** The receiver's key pair: the sender's public key travels in the message header. */
    privateKey: ECDH;
    authSecret: Buffer | string;
  }

  const ece: { decrypt(buffer: Buffer, params: DecryptParams): Buffer };
  export default ece;
}
