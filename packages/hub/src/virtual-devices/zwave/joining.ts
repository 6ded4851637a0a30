import { randomBytes } from 'node:crypto';
import { ECDHProfiles, KEXSchemes, Security2CC, Security2CCKEXSet, Security2CCNonceReport } from '@zwave-js/cc';
import { CommandClasses, dskToString, SecurityClass } from '@zwave-js/core';
import { FunctionType, Message, MessageType } from '@zwave-js/serial';
import {
  AddNodeStatus,
  AddNodeToNetworkRequest,
  AddNodeToNetworkRequestStatusReport,
  AddNodeType,
  RemoveFailedNodeRequest,
  RemoveFailedNodeStartFlags,
  RemoveFailedNodeStatus,
  RemoveNodeFromNetworkRequest,
  RemoveNodeFromNetworkRequestStatusReport,
  RemoveNodeStatus,
  RemoveNodeType,
} from '@zwave-js/serial/serialapi';
import {
  createMockZWaveRequestFrame,
  type MockController,
  type MockControllerBehavior,
  type MockNode,
  type MockNodeBehavior,
} from '@zwave-js/testing';
import { isGone, respondToBatteryGet, respondToWakeUp, silentWhileGone, switchPerEndpoint } from './nodes';

type Json = Record<string, unknown>;

/** zwave-js's mock controller keeps its inclusion state under this key; 0 is idle (its own enum is not exported). */
const INCLUSION_STATE = 'inclusionState';
const IDLE = 0;

/** The mock controller's own network keys: mock nodes need some to set up S0/S2; the hub gives them its own on joining. */
export const mockSecurityKeys = () => ({
  S0_Legacy: randomBytes(16),
  S2_Unauthenticated: randomBytes(16),
  S2_Authenticated: randomBytes(16),
  S2_AccessControl: randomBytes(16),
});

/** Meter type 1 is electricity; Multilevel Sensor type 1 is air temperature. */
const ELECTRIC_METER = 1;
const AIR_TEMPERATURE = 1;

/** What a joining node asks to be granted, by the names control lines use. */
const SECURITY: Record<string, SecurityClass[]> = {
  S2: [SecurityClass.S2_Authenticated, SecurityClass.S2_Unauthenticated],
  S2_Unauthenticated: [SecurityClass.S2_Unauthenticated],
  S0: [SecurityClass.S0_Legacy],
  none: [],
};

/** Where zwave-js's mock S2 behaviours keep a joining node's bootstrap stage; 1 is the handshake (its enum is not exported). */
const BOOTSTRAP_STATE = 'Security2_bootstrapState';
const HANDSHAKE = 1;
/** How soon a joining node sends its KEX Set echo again after the controller could not read it (real nodes: 10 s). */
const KEX_SET_REPEAT_MS = 300;

/**
 * A real S2 node repeats its encrypted KEX Set echo until the controller can read it: the controller can only once
 * the person entered the PIN. zwave-js's mock node sends it once, right away, so no PIN typed later would ever be
 * used. This repeats it whenever the controller answers it with a new nonce, while the handshake lasts.
 */
function repeatKexSetEcho(): MockNodeBehavior {
  let pending = false;
  return {
    handleCC(controller, self, receivedCC) {
      if (!(receivedCC instanceof Security2CCNonceReport) || !receivedCC.SOS || pending) return undefined;
      const inHandshake = () => (self.state.get(BOOTSTRAP_STATE) as { stage?: number } | undefined)?.stage === HANDSHAKE;
      if (!inHandshake()) return undefined;
      pending = true;
      setTimeout(() => {
        pending = false;
        if (!inHandshake()) return;
        const echo = new Security2CCKEXSet({
          nodeId: controller.ownNodeId,
          echo: true,
          selectedKEXScheme: KEXSchemes.KEXScheme1,
          selectedECDHProfile: ECDHProfiles.Curve25519,
          permitCSA: false,
          grantedKeys: [...self.capabilities.securityClasses],
        });
        const frame = createMockZWaveRequestFrame(Security2CC.encapsulate(echo, self.id, self.securityManagers));
        // A stand-in node repeating a frame it sent once already: a repeat lost is what a lost radio frame is.
        void self.sendToController(frame).catch(() => undefined);
      }, KEX_SET_REPEAT_MS);
      return { action: 'stop' };
    },
  };
}

/** The node that joins next, and the node that leaves on the next exclusion, of one virtual network. */
export class MockJoining {
  #joined: MockNode | null = null;
  #leaving: number | null = null;

  constructor(private readonly controller: MockController) {}

  /**
   * Makes a wall plug (a binary switch; with a meter when `meter` is true, more classes with `extras`, asleep between
   * wake-ups with `sleeping`) wait to join: the next inclusion the hub starts finds it. `security` is what it
   * asks for (`S2`: S2 Authenticated, whose PIN the test reads with `pin`; `S0`; `none`).
   */
  include(request: Json): { nodeId: number } {
    const nodeId = Number(request.nodeId ?? this.#freeNodeId());
    const security = SECURITY[String(request.security ?? 'none')];
    if (!security) throw new Error(`unknown security ${String(request.security)}`);
    const secure = security.length > 0;
    const endpoints = Number(request.endpoints ?? 0);
    const ids = (key: string, fallback: number) => (typeof request[key] === 'number' ? Number(request[key]) : fallback);
    this.#joined = null;
    this.controller.nodePendingInclusion = {
      id: nodeId,
      capabilities: {
        ...(endpoints > 0
          ? {
              endpoints: Array.from({ length: endpoints }, () => ({
                commandClasses: [{ ccId: CommandClasses['Binary Switch'], isSupported: true, version: 2, secure }],
              })),
            }
          : {}),
        // `sleeping: true`: a battery node that sleeps between wake-ups, as a sensor does; zwave-js queues for it.
        ...(request.sleeping === true ? { isListening: false, isFrequentListening: false } : {}),
        manufacturerId: ids('manufacturerId', 0x7e57),
        productType: ids('productTypeId', 0x0001),
        productId: ids('productId', 0x0001),
        securityClasses: new Set(security),
        commandClasses: [
          CommandClasses.Version,
          CommandClasses['Manufacturer Specific'],
          // A secure node answers its application command classes only encrypted, as real ones do. A multi-channel
          // node (`endpoints`: how many) has its switches on its endpoints, none on its root.
          ...(endpoints > 0
            ? [{ ccId: CommandClasses['Multi Channel'], isSupported: true, version: 4, secure }]
            : [{ ccId: CommandClasses['Binary Switch'], isSupported: true, version: 2, secure }]),
          // `meter: true`: an electricity meter reading 1.5 kWh and 42 W, as the network's own plug.
          ...(request.meter === true
            ? [
                {
                  ccId: CommandClasses.Meter,
                  isSupported: true,
                  version: 3,
                  secure,
                  supportedScales: [0, 2],
                  meterType: ELECTRIC_METER,
                  supportedRateTypes: [],
                  supportsReset: false,
                  getValue: (scale: number) => (scale === 2 ? 42 : 1.5),
                },
              ]
            : []),
          // `config: true`: configuration parameters 3 (one byte, default 0), which the test reads back, and 4 (one
          // byte, default 1), which takes 0 to 10 only.
          ...(request.config === true
            ? [
                {
                  ccId: CommandClasses.Configuration,
                  isSupported: true,
                  version: 1,
                  secure,
                  parameters: [
                    { '#': 3, valueSize: 1, defaultValue: 0 },
                    { '#': 4, valueSize: 1, defaultValue: 1, minValue: 0, maxValue: 10 },
                  ],
                },
              ]
            : []),
          // `extras: true`: Basic, a dimmer, a temperature sensor (21.5 °C) and a battery (87 %) besides.
          ...(request.extras === true
            ? [
                { ccId: CommandClasses.Basic, isSupported: true, version: 2, secure },
                { ccId: CommandClasses['Multilevel Switch'], isSupported: true, version: 4, secure },
                {
                  ccId: CommandClasses['Multilevel Sensor'],
                  isSupported: true,
                  version: 11,
                  secure,
                  sensors: { [AIR_TEMPERATURE]: { supportedScales: [0] } },
                  getValue: () => 21.5,
                },
                { ccId: CommandClasses.Battery, isSupported: true, version: 1, secure },
              ]
            : []),
          ...(request.sleeping === true ? [{ ccId: CommandClasses['Wake Up'], isSupported: true, version: 1, secure }] : []),
          ...(security.includes(SecurityClass.S0_Legacy)
            ? [{ ccId: CommandClasses.Security, isSupported: true, version: 1 }]
            : secure
              ? [{ ccId: CommandClasses['Security 2'], isSupported: true, version: 1 }]
              : []),
        ],
      },
      setup: (node) => {
        node.defineBehavior(respondToBatteryGet, respondToWakeUp, repeatKexSetEcho());
        node.defineBehavior(switchPerEndpoint);
        // Defined last, so asked first: a node that is gone answers nothing.
        node.defineBehavior(silentWhileGone);
        this.#joined = node;
      },
    };
    return { nodeId };
  }

  /** The S2 PIN (the DSK's first five digits) of the node that joins, once the hub started including it. */
  pin(): string {
    return this.dsk().slice(0, 5);
  }

  /**
   * The DSK of the node that joins, as its label shows it: the first 16 bytes of its public key (zwave-js's mock node
   * answers bytes 1–16 as its `dsk`, which is not what it sends the controller nor what zwave-js reads).
   */
  dsk(): string {
    if (!this.#joined) throw new Error('no node is joining');
    return dskToString(this.#joined.ecdhKeyPair.publicKey.subarray(0, 16));
  }

  /** Makes node `nodeId` leave on the next exclusion the hub starts (its button pressed in exclusion mode). */
  exclude(request: Json): true {
    const nodeId = Number(request.node);
    if (!this.controller.nodes.has(nodeId)) throw new Error(`no mock node ${nodeId}`);
    this.#leaving = nodeId;
    return true;
  }

  /**
   * zwave-js sends a second stop (without callback) after each inclusion; zwave-js's mock controller takes a stop
   * while idle for the start of inclusion mode, and then refuses the next one. This keeps it idle instead.
   */
  readonly inclusionStop: MockControllerBehavior = {
    onHostMessage: async (controller, msg) => {
      if (!(msg instanceof AddNodeToNetworkRequest) || msg.addNodeType !== AddNodeType.Stop) return undefined;
      if (controller.state.get(INCLUSION_STATE) !== undefined && controller.state.get(INCLUSION_STATE) !== IDLE) return undefined;
      if (msg.callbackId !== 0)
        await controller.sendMessageToHost(
          new AddNodeToNetworkRequestStatusReport({ callbackId: msg.callbackId, status: AddNodeStatus.Failed }),
        );
      return true;
    },
  };

  /**
   * zwave-js's mock controller enters exclusion mode but never finds a node: this behaviour answers a Remove Node
   * request the way a controller does when the waiting node's button is pressed, and takes the node off the network.
   */
  readonly exclusion: MockControllerBehavior = {
    onHostMessage: async (controller, msg) => {
      if (!(msg instanceof RemoveNodeFromNetworkRequest)) return undefined;
      const report = (status: RemoveNodeStatus, nodeId?: number) =>
        controller.sendMessageToHost(
          new RemoveNodeFromNetworkRequestStatusReport(
            nodeId === undefined
              ? { callbackId: msg.callbackId, status: status as RemoveNodeStatus.Ready }
              : { callbackId: msg.callbackId, status: status as RemoveNodeStatus.RemovingSlave, nodeId },
          ),
        );
      if (msg.removeNodeType === RemoveNodeType.Stop) {
        // zwave-js's mock would take a stop while idle for a start of exclusion mode, and then refuse to include.
        controller.state.set(INCLUSION_STATE, IDLE);
        if (msg.callbackId !== 0) await report(RemoveNodeStatus.Failed);
        return true;
      }
      const leaving = this.#leaving;
      if (leaving === null) return undefined;
      this.#leaving = null;
      await report(RemoveNodeStatus.Ready);
      void (async () => {
        await report(RemoveNodeStatus.NodeFound);
        await report(RemoveNodeStatus.RemovingSlave, leaving);
        const node = controller.nodes.get(leaving);
        if (node) controller.removeNode(node);
        await report(RemoveNodeStatus.Done);
      })();
      return true;
    },
  };

  /**
   * zwave-js's mock controller does not remove failed nodes: this answers as a controller does, removing a node
   * that is gone (it answers nothing) and keeping one that answers (NodeOK).
   */
  readonly removeFailed: MockControllerBehavior = {
    onHostMessage: async (controller, msg) => {
      if (!(msg instanceof RemoveFailedNodeRequest)) return undefined;
      // zwave-js's classes for these two messages do not serialize their fields: the bytes are written here.
      // (`payload` is zwave-js's Bytes, a Uint8Array with helpers only serializing needs, which this message skips.)
      const send = (type: MessageType, ...bytes: number[]) =>
        controller.sendMessageToHost(
          new Message({
            type,
            functionType: FunctionType.RemoveFailedNode,
            payload: Uint8Array.from(bytes) as never,
          }),
        );
      const node = controller.nodes.get(msg.failedNodeId);
      if (!node) {
        await send(MessageType.Response, RemoveFailedNodeStartFlags.NodeNotFound);
        return true;
      }
      await send(MessageType.Response, RemoveFailedNodeStartFlags.OK);
      const failed = isGone(node);
      if (failed) controller.removeNode(node);
      await send(
        MessageType.Request,
        msg.callbackId ?? 0,
        failed ? RemoveFailedNodeStatus.NodeRemoved : RemoveFailedNodeStatus.NodeOK,
      );
      return true;
    },
  };

  #freeNodeId(): number {
    let id = 2;
    while (this.controller.nodes.has(id)) id++;
    return id;
  }
}
