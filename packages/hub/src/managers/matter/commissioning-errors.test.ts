import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { QrPairingCodeCodec } from '@matter/main/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { commissionMatter, emitMatterCode } from '../../testing/matter';
import { untilAppRunning } from '../../testing/pairing';
import { startVirtualPlug, type VirtualDeviceProcess } from './virtual-devices/process';

type Json = Record<string, unknown>;

/** How long this hub lets commissioning look for a device: the "not found" and "refused" answers take this long. */
const COMMISSION_TIMEOUT_MS = 8_000;

/**
 * Commissioning errors through the hub's HTTP pair session, each a 4xx with a stable code, against a matter.js plug
 * in its own process: not a code, a code the plug refuses, a code no device on the network has, and the code of a
 * device already on the hub's fabric. None of them leaves a node behind.
 */
describe('Commissioning errors of the Matter pair session', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'hearth-matter-errors-'));
  let plug: VirtualDeviceProcess;
  let t: TestHub;

  /** The plug's QR payload with another passcode, or another discriminator too. */
  const qrLike = (change: { passcode?: number; discriminator?: number }) => {
    const [qr] = QrPairingCodeCodec.decode(plug.qrPairingCode);
    return QrPairingCodeCodec.encode([{ ...qr!, ...change }]);
  };
  const nodes = async () => (await t.call<Json[]>('GET', '/matter/nodes')).body;

  beforeAll(async () => {
    [plug, t] = await Promise.all([
      startVirtualPlug(join(scratch, 'plug')),
      startTestHub({
        id: randomBytes(12).toString('hex'),
        dataDir: join(scratch, 'hub'),
        matterCommissionTimeoutMs: COMMISSION_TIMEOUT_MS,
      }),
    ]);
    await untilAppRunning(t);
  });
  afterAll(async () => {
    await t?.stop();
    await plug?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('answers 400 invalid_pairing_code for what is not a pairing code, its check digit included', async () => {
    const last = Number(plug.manualPairingCode.at(-1));
    const badCheckDigit = `${plug.manualPairingCode.slice(0, -1)}${(last + 1) % 10}`;
    for (const code of ['1234', badCheckDigit, 'MT:NOT-A-PAYLOAD']) {
      const { found } = await emitMatterCode(t, code);
      expect(found.status, code).toBe(400);
      expect(found.body, code).toMatchObject({ error: 'invalid_pairing_code' });
    }
  });

  it('answers 400 pairing_code_refused when the device in pairing mode refuses the passcode', async () => {
    const [qr] = QrPairingCodeCodec.decode(plug.qrPairingCode);
    const { found } = await emitMatterCode(t, qrLike({ passcode: qr!.passcode === 20202021 ? 20202022 : 20202021 }));
    expect(found).toMatchObject({ status: 400, body: { error: 'pairing_code_refused' } });
    expect(await nodes()).toEqual([]);
  });

  it('answers 404 device_not_discovered when no device with the code answers in time', async () => {
    const [qr] = QrPairingCodeCodec.decode(plug.qrPairingCode);
    const { found } = await emitMatterCode(t, qrLike({ discriminator: (qr!.discriminator + 2048) % 4096 }));
    expect(found).toMatchObject({ status: 404, body: { error: 'device_not_discovered' } });
    expect(String(found.body.error_description)).toContain(`${COMMISSION_TIMEOUT_MS / 1000} s`);
    expect(await nodes()).toEqual([]);
  });

  it('answers 409 already_commissioned for the code of a device on the hub, typed or scanned', async () => {
    await commissionMatter(t, plug.manualPairingCode);
    for (const code of [plug.manualPairingCode, plug.qrPairingCode]) {
      const { found } = await emitMatterCode(t, code);
      expect(found, code).toMatchObject({ status: 409, body: { error: 'already_commissioned' } });
    }
    expect(await nodes()).toHaveLength(1);
  });
});
