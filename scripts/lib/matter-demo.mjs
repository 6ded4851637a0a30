// The demo's Matter devices join the hub "Home" on first start: commissioned over IP with their pairing codes
// through the hub's HTTP pair session, as a person adding a Matter device in the web app does. What was added is
// kept in the Matter demo's folder, so later starts find the nodes on the hub's fabric and add nothing again.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The hub's built-in Matter driver (packages/hub/src/managers/matter/fabric.ts). */
const MATTER_DRIVER_ID = 'homey:app:com.hearth.virtual:matter_clusters';

/**
 * Commissions each demo device not yet on the hub's fabric, names it and puts it in its zone; answers one line per
 * device for `npm start`'s summary.
 * @param {{ url: string, ownerToken: string }} hub
 * @param {{ kind: string, name: string, zone: string, manualPairingCode: string }[]} devices
 * @param {string} demoDir the Matter demo's folder (its nodes' storage)
 * @param {(line: string) => void} log
 * @returns {Promise<string[]>}
 */
export async function commissionDemoDevices(hub, devices, demoDir, log) {
  const recordFile = join(demoDir, 'commissioned.json');
  /** @type {Record<string, string>} kind → the hub's device id */
  const commissioned = existsSync(recordFile) ? JSON.parse(readFileSync(recordFile, 'utf8')) : {};
  /** @param {string} method @param {string} path @param {unknown} [body] */
  const call = async (method, path, body) => {
    const response = await fetch(`${hub.url}/api/manager${path}`, {
      method,
      headers: { authorization: `Bearer ${hub.ownerToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const missing = devices.filter((device) => !commissioned[device.kind]);
  if (missing.length > 0) {
    log(`• Commissioning the demo's ${missing.length} Matter devices into hub Home (first start only)…`);
    const zones = Object.values(await call('GET', '/zones/zone'));
    for (const device of missing) {
      const zone = zones.find((/** @type {any} */ candidate) => candidate.name === device.zone);
      const session = await call('POST', '/drivers/pairsession', {
        type: 'pair',
        driverId: MATTER_DRIVER_ID,
        ...(zone ? { zoneId: zone.id } : {}),
      });
      try {
        const found = await call('POST', `/drivers/pairsession/${session.id}/emit`, {
          event: 'matter_code',
          data: { code: device.manualPairingCode },
        });
        const added = await call('POST', `/drivers/pairsession/${session.id}/device`, { ...found[0], name: device.name });
        commissioned[device.kind] = added.id;
        writeFileSync(recordFile, `${JSON.stringify(commissioned, null, 2)}\n`);
      } finally {
        await call('DELETE', `/drivers/pairsession/${session.id}`).catch(() => {
          // An ended session is gone already: nothing to clean up.
        });
      }
    }
  }
  return devices.map((device) => `    ${device.name.padEnd(22)} ${device.kind.padEnd(24)} code ${device.manualPairingCode}`);
}
