import { QrPairingCodeCodec } from '@matter/main/types';
import { describe, expect, it } from 'vitest';
import { commissionMatter, emitMatterCode, plugAndHub } from '../../testing/matter';

type Json = Record<string, unknown>;

/** How long this hub lets commissioning look for a device: the "not found" and "refused" answers take this long. */
const COMMISSION_TIMEOUT_MS = 8_000;

/**
 * Commissioning errors through the hub's HTTP pair session, each a 4xx with a stable code, against a matter.js plug
 * in its own process: not a code, a code the plug refuses, a code no device on the network has, and the code of a
 * device already on the hub's fabric. None of them leaves a node behind.
 */
describe('Commissioning errors of the Matter pair session', () => {
  const rig = plugAndHub('errors', { hub: { matterCommissionTimeoutMs: COMMISSION_TIMEOUT_MS } });

  /** The plug's QR payload with another passcode, or another discriminator too. */
  const qrLike = (change: { passcode?: number; discriminator?: number }) => {
    const [qr] = QrPairingCodeCodec.decode(rig.plug.qrPairingCode);
    return QrPairingCodeCodec.encode([{ ...qr!, ...change }]);
  };
  const nodes = async () => (await rig.hub.call<Json[]>('GET', '/matter/nodes')).body;

  it('answers 400 invalid_pairing_code for what is not a pairing code, its check digit included', async () => {
    const last = Number(rig.plug.manualPairingCode.at(-1));
    const badCheckDigit = `${rig.plug.manualPairingCode.slice(0, -1)}${(last + 1) % 10}`;
    for (const code of ['1234', badCheckDigit, 'MT:NOT-A-PAYLOAD']) {
      const { found } = await emitMatterCode(rig.hub, code);
      expect(found.status, code).toBe(400);
      expect(found.body, code).toMatchObject({ error: 'invalid_pairing_code' });
    }
  });

  it('answers 400 pairing_code_refused when the device in pairing mode refuses the passcode', async () => {
    const [qr] = QrPairingCodeCodec.decode(rig.plug.qrPairingCode);
    const { found } = await emitMatterCode(rig.hub, qrLike({ passcode: qr!.passcode === 20202021 ? 20202022 : 20202021 }));
    expect(found).toMatchObject({ status: 400, body: { error: 'pairing_code_refused' } });
    expect(await nodes()).toEqual([]);
  });

  it('answers 404 device_not_discovered when no device with the code answers in time', async () => {
    const [qr] = QrPairingCodeCodec.decode(rig.plug.qrPairingCode);
    const { found } = await emitMatterCode(rig.hub, qrLike({ discriminator: (qr!.discriminator + 2048) % 4096 }));
    expect(found).toMatchObject({ status: 404, body: { error: 'device_not_discovered' } });
    expect(String(found.body.error_description)).toContain(`${COMMISSION_TIMEOUT_MS / 1000} s`);
    expect(await nodes()).toEqual([]);
  });

  it('answers 409 already_commissioned for the code of a device on the hub, typed or scanned', async () => {
    await commissionMatter(rig.hub, rig.plug.manualPairingCode);
    for (const code of [rig.plug.manualPairingCode, rig.plug.qrPairingCode]) {
      const { found } = await emitMatterCode(rig.hub, code);
      expect(found, code).toMatchObject({ status: 409, body: { error: 'already_commissioned' } });
    }
    expect(await nodes()).toHaveLength(1);
  });
});
