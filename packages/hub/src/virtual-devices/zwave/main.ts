/**
 * Virtual Z-Wave network: zwave-js's own mock controller with mock nodes, served over TCP so that a hub opens it
 * as its Z-Wave stick (`HUB_ZWAVE_PORT=tcp://127.0.0.1:<port>`). It runs in its own process, never inside the
 * hub. Once listening it prints one line `ZWAVE_MOCK_READY {"port":<port>}` to stdout, then the line `npm start`
 * waits for, `HEARTH_READY {"kind":"zwave","url":"tcp://…","nodes":[…]}`; it then answers control lines on stdin
 * (`control.ts`), and `include` / `pin` / `exclude` lines for nodes joining and leaving (`joining.ts`). `npm start`
 * runs it bundled (`dist/zwave-demo.js`) as the demo hub's STAND-IN FOR a Z-Wave stick; tests run it from source.
 *
 * Env: `ZWAVE_MOCK_HOST` (default 127.0.0.1), `ZWAVE_MOCK_PORT` (default 0: any free port); `ZWAVE_MOCK_NODES=none`
 * starts without the virtual nodes.
 */
import type { AddressInfo } from 'node:net';
import { FunctionType } from '@zwave-js/serial';
import { createAndOpenMockedZWaveSerialPort } from '@zwave-js/serial/mock';
import { getDefaultSupportedFunctionTypes, MockController, MockNode } from '@zwave-js/testing';
import { createDefaultMockControllerBehaviors, createDefaultMockNodeBehaviors } from 'zwave-js/Testing';
import { answerControlLines } from './control';
import { MockJoining, mockSecurityKeys } from './joining';
import { MOCK_HOME_ID, respondToBatteryGet, VIRTUAL_NODE_NAMES, virtualZwaveNodes } from './nodes';
import { serveSerialOverTcp } from './serial-bridge';

const { serial, port: mockPort } = await createAndOpenMockedZWaveSerialPort();
const controller = await MockController.create({
  homeId: MOCK_HOME_ID,
  ownNodeId: 1,
  mockPort,
  serial,
  securityKeys: mockSecurityKeys(),
  // Removing failed nodes is a function every real controller has; zwave-js's mock lists it not (joining.ts answers it).
  capabilities: { supportedFunctionTypes: [...getDefaultSupportedFunctionTypes(), FunctionType.RemoveFailedNode] },
});
const joining = new MockJoining(controller);
controller.defineBehavior(...createDefaultMockControllerBehaviors());
// Behaviours defined later come first: these replace the defaults' handling of a stop while idle and of exclusion.
controller.defineBehavior(joining.inclusionStop, joining.exclusion, joining.removeFailed);
// An empty network (ZWAVE_MOCK_NODES=none) starts at once: tests of joining need no nodes to interview first.
for (const options of process.env.ZWAVE_MOCK_NODES === 'none' ? [] : virtualZwaveNodes()) {
  const node = await MockNode.create({ ...options, controller });
  controller.addNode(node);
  node.defineBehavior(...createDefaultMockNodeBehaviors(), respondToBatteryGet);
}
answerControlLines(controller, {
  include: (request) => joining.include(request),
  pin: () => joining.pin(),
  dsk: () => joining.dsk(),
  exclude: (request) => joining.exclude(request),
});

const host = process.env.ZWAVE_MOCK_HOST ?? '127.0.0.1';
const server = await serveSerialOverTcp(serial, host, Number(process.env.ZWAVE_MOCK_PORT ?? 0));
const { port } = server.address() as AddressInfo;
console.log(`ZWAVE_MOCK_READY ${JSON.stringify({ port })}`);
const nodes = [...controller.nodes.keys()].map((id) => `${id}: ${VIRTUAL_NODE_NAMES[id] ?? 'a node'}`);
console.log(`HEARTH_READY ${JSON.stringify({ kind: 'zwave', url: `tcp://${host}:${port}`, nodes })}`);

const stop = () => {
  server.close();
  controller.destroy();
  mockPort.destroy();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
