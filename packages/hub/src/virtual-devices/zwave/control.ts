import { createInterface } from 'node:readline';
import type { CommandClass } from '@zwave-js/cc';
import {
  BatteryCCReport,
  BinarySwitchCCReport,
  MeterCCReport,
  MultilevelSensorCCReport,
  NotificationCCReport,
} from '@zwave-js/cc';
import { createMockZWaveRequestFrame, type MockController } from '@zwave-js/testing';
import { BATTERY_LEVEL_KEY, setGone, wakeUp } from './nodes';

type Json = Record<string, unknown>;

/**
 * What a test (or the demo) asks the virtual network, one JSON line on the process's stdin:
 * `{"id":1,"op":"state","node":2,"key":"BinarySwitch_currentValue"}` reads a mock node's state;
 * `{"id":2,"op":"report","node":4,"cc":"notification","type":7,"event":8}` makes a node send a report unasked
 * (`cc`: `meter` {type, scale, value}, `sensor` {type, scale, value}, `notification` {type, event}, `battery`
 * {level}, `switch` {value}: a Binary Switch report); `wake` wakes a sleeping node; `gone` takes a node off the air and
 * `back` returns it. Each answer is one line `ZWAVE_MOCK_ANSWER {"id":…,"result":…}` or `{"id":…,"error":"…"}` on stdout.
 */
export function answerControlLines(controller: MockController, extraOps: Record<string, (request: Json) => unknown> = {}): void {
  const ops: Record<string, (request: Json) => unknown> = {
    state: (request) => mockNode(controller, request).state.get(String(request.key)) ?? null,
    report: async (request) => {
      const node = mockNode(controller, request);
      const cc = reportOf(controller, request);
      if (cc instanceof BatteryCCReport) node.state.set(BATTERY_LEVEL_KEY, request.level);
      await node.sendToController(createMockZWaveRequestFrame(cc, { ackRequested: false }));
      return true;
    },
    // A sleeping node wakes up; a node goes off the air (`gone`) and comes back (`back`, saying so with a switch report).
    wake: async (request) => {
      await wakeUp(controller, mockNode(controller, request));
      return true;
    },
    gone: async (request) => {
      await setGone(mockNode(controller, request), true, async () => undefined);
      return true;
    },
    back: async (request) => {
      const node = mockNode(controller, request);
      const state = node.state.get('BinarySwitch_currentValue') === true;
      await setGone(node, false, () =>
        node.sendToController(
          createMockZWaveRequestFrame(new BinarySwitchCCReport({ nodeId: controller.ownNodeId, currentValue: state }), {
            ackRequested: false,
          }),
        ),
      );
      return true;
    },
    ...extraOps,
  };
  createInterface({ input: process.stdin }).on('line', (line) => {
    let request: Json;
    try {
      request = JSON.parse(line) as Json;
    } catch {
      console.error(`Z-Wave mock: a control line is not JSON: ${line}`);
      return;
    }
    const answer = (body: Json) => console.log(`ZWAVE_MOCK_ANSWER ${JSON.stringify({ id: request.id, ...body })}`);
    // An op may answer null (a state never set): only a missing op is unknown.
    const op = ops[String(request.op)];
    void (async () => (op ? op(request) : Promise.reject(new Error(`unknown op ${String(request.op)}`))))()
      .then((result: unknown) => answer({ result: result ?? null }))
      .catch((error: unknown) => answer({ error: error instanceof Error ? error.message : String(error) }));
  });
}

function mockNode(controller: MockController, request: Json) {
  const node = controller.nodes.get(Number(request.node));
  if (!node) throw new Error(`no mock node ${String(request.node)}`);
  return node;
}

/** The report a control line asks a node to send, addressed to the controller. */
function reportOf(controller: MockController, request: Json): CommandClass {
  const nodeId = controller.ownNodeId;
  const number = (key: string) => Number(request[key]);
  switch (request.cc) {
    case 'meter':
      return new MeterCCReport({ nodeId, type: number('type'), scale: number('scale'), value: number('value') });
    case 'sensor':
      return new MultilevelSensorCCReport({ nodeId, type: number('type'), scale: number('scale'), value: number('value') });
    case 'notification':
      return new NotificationCCReport({ nodeId, notificationType: number('type'), notificationEvent: number('event') });
    case 'battery':
      return new BatteryCCReport({ nodeId, level: number('level') });
    case 'switch':
      return new BinarySwitchCCReport({ nodeId, currentValue: request.value === true });
    default:
      throw new Error(`unknown report ${String(request.cc)}`);
  }
}
