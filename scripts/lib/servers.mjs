// How `npm start` runs each server process, in one place: the idle-memory benchmark measures the very process.

/**
 * Node options per server. Both map stack traces to the TypeScript sources (the hub's diagnostic reports
 * and the logs show them). A hub runs in a home on small hardware and idles most of the time: its young
 * generation is capped at 4 MB per semi-space, where V8 would otherwise keep 32 MB resident after a burst of
 * work (seeding, a backup) and never give it back; a scavenge of 4 MB stays well under a millisecond.
 */
export const serverNodeArgs = {
  cloud: ['--enable-source-maps'],
  hub: ['--enable-source-maps', '--max-semi-space-size=4'],
  mqttDemo: ['--enable-source-maps'],
  zwaveDemo: ['--enable-source-maps'],
  matterDemo: ['--enable-source-maps'],
};

/** The bundled entry of each server, relative to the repository root. */
export const serverEntries = {
  cloud: 'packages/cloud/dist/main.js',
  hub: 'packages/hub/dist/main.js',
  /** The demo's MQTT broker and its stand-in devices (packages/hub/src/managers/mqtt/virtual-devices/demo-broker.ts). */
  mqttDemo: 'packages/hub/dist/mqtt-demo.js',
  /** The demo's virtual Z-Wave network, a stand-in for a Z-Wave stick (packages/hub/src/virtual-devices/zwave/main.ts). */
  zwaveDemo: 'packages/hub/dist/zwave-demo.js',
  /** The demo's virtual Matter devices, real Matter nodes over IP (packages/hub/src/virtual-devices/matter/main.ts). */
  matterDemo: 'packages/hub/dist/matter-demo.js',
};
