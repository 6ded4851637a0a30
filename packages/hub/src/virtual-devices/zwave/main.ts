/**
 * Virtual Z-Wave network: zwave-js's own mock controller with mock nodes, served over TCP so that a hub opens it
 * as its Z-Wave stick (`HUB_ZWAVE_PORT=tcp://127.0.0.1:<port>`). It runs in its own process, never inside the
 * hub. Once listening it prints one line `ZWAVE_MOCK_READY {"port":<port>}` to stdout; it then answers control lines
 * on stdin (`control.ts`).
 *
 * Env: `ZWAVE_MOCK_PORT` (default 0: any free port).
 */
import type { AddressInfo } from 'node:net';
import { createAndOpenMockedZWaveSerialPort } from '@zwave-js/serial/mock';
import { MockController, MockNode } from '@zwave-js/testing';
import { createDefaultMockControllerBehaviors, createDefaultMockNodeBehaviors } from 'zwave-js/Testing';
import { answerControlLines } from './control';
import { MOCK_HOME_ID, respondToBatteryGet, virtualZwaveNodes } from './nodes';
import { serveSerialOverTcp } from './serial-bridge';

const { serial, port: mockPort } = await createAndOpenMockedZWaveSerialPort();
const controller = await MockController.create({ homeId: MOCK_HOME_ID, ownNodeId: 1, mockPort, serial });
controller.defineBehavior(...createDefaultMockControllerBehaviors());
for (const options of virtualZwaveNodes()) {
  const node = await MockNode.create({ ...options, controller });
  controller.addNode(node);
  node.defineBehavior(...createDefaultMockNodeBehaviors(), respondToBatteryGet);
}
answerControlLines(controller);

const server = await serveSerialOverTcp(serial, '127.0.0.1', Number(process.env.ZWAVE_MOCK_PORT ?? 0));
console.log(`ZWAVE_MOCK_READY ${JSON.stringify({ port: (server.address() as AddressInfo).port })}`);

const stop = () => {
  server.close();
  controller.destroy();
  mockPort.destroy();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
