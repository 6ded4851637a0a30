import { Type } from 'typebox';
import { managerEvents, optionEvents } from '../events';
import { hubManager } from '../operation';
import { declareOptions, declareState, OpenObject } from './options';

/** Matter: commissioned nodes and their fabrics. */
const op = hubManager('matter');

const NodeParams = Type.Object({ id: Type.String({ minLength: 1 }) });
/** The older description names a node by `nodeId` in the query of its private GET calls. */
const NodeQuery = Type.Object({ nodeId: Type.String({ minLength: 1, maxLength: 20 }) });
const FabricIndex = Type.Integer({ minimum: 1, maximum: 254 });

export const matterOperations = {
  getState: declareState(op),
  ...declareOptions(op, {
    paaSettings: { value: Type.Object({}, { additionalProperties: true }), read: 'homey.system', write: 'homey.system' },
  }),
  getMatterNodes: op({
    name: 'getMatterNodes',
    summary: "Every Matter node on the hub's fabric (its matter.js controller), with its vendor, product and reachability.",
    method: 'GET',
    path: '/nodes',
    scope: 'homey.system.readonly',
    response: Type.Array(OpenObject),
  }),
  getMatterNode: op({
    name: 'getMatterNode',
    summary: 'One Matter node: its vendor, product, device and reachability.',
    method: 'GET',
    path: '/node/:id',
    scope: 'homey.system.readonly',
    params: NodeParams,
    response: OpenObject,
  }),
  deleteMatterNode: op({
    name: 'deleteMatterNode',
    summary: "Removes a Matter node from the hub's fabric and deletes its device.",
    method: 'DELETE',
    path: '/node/:id',
    scope: 'homey.system',
    params: NodeParams,
  }),
  getNodeFabrics: op({
    name: 'getNodeFabrics',
    summary: "The fabrics (controllers) a Matter node belongs to, the hub's own among them.",
    method: 'GET',
    path: '/node/:id/fabrics',
    scope: 'homey.system.readonly',
    params: NodeParams,
    response: Type.Array(OpenObject),
  }),
  pingNode: op({
    name: 'pingNode',
    summary: 'Checks whether a Matter node answers; answers whether it is reachable and the round trip.',
    method: 'POST',
    path: '/node/:id/ping',
    scope: 'homey.system',
    params: NodeParams,
    response: OpenObject,
  }),
  getNodeAttributes: op({
    name: 'getNodeAttributes',
    method: 'GET',
    path: '/node/:id/attributes',
    scope: 'homey.system.readonly',
    params: NodeParams,
    response: Type.Array(
      Type.Object({
        endpoint: Type.Integer(),
        cluster: Type.Integer(),
        clusterName: Type.String(),
        attribute: Type.Integer(),
        attributeName: Type.String(),
        value: Type.Unknown(),
      }),
    ),
    summary: "The node's attributes, read from the node: basic information and each capability's cluster.",
  }),
  deleteNodeFabric: op({
    name: 'deleteNodeFabric',
    method: 'DELETE',
    path: '/node/:id/fabric/:fabricIndex',
    scope: 'homey.system',
    params: Type.Object({ id: Type.String({ minLength: 1 }), fabricIndex: FabricIndex }),
    summary: "Removes another controller's fabric from the node (the hub's own is removed by removing the node).",
  }),
  resolveNodeAddress: op({
    name: 'resolveNodeAddress',
    summary: "A Matter node's IPv6 addresses, port and transport (Thread or Wi-Fi).",
    method: 'POST',
    path: '/node/:id/resolve-address',
    scope: 'homey.system.readonly',
    params: NodeParams,
    response: OpenObject,
  }),
  forceNodeUpdate: op({
    name: 'forceNodeUpdate',
    method: 'POST',
    path: '/node/:id/force-update',
    scope: 'homey.system',
    params: NodeParams,
    response: OpenObject,
    summary: 'Interviews the node again and answers it.',
  }),
  getNodeAvailableFirmwareUpdate: op({
    name: 'getNodeAvailableFirmwareUpdate',
    summary: "A Matter node's firmware version and the update available for it (`available` is `null` when up to date).",
    method: 'GET',
    path: '/node/:id/firmware-update',
    scope: 'homey.system.readonly',
    params: NodeParams,
    response: Type.Object({
      softwareVersion: Type.Integer(),
      available: Type.Union([
        Type.Object({ softwareVersion: Type.Integer(), softwareVersionString: Type.String() }),
        Type.Null(),
      ]),
      /** Why no update is offered when none is looked up (this hub has no DCL to ask). */
      reason: Type.Optional(Type.String()),
    }),
  }),
  installNodeAvailableFirmwareUpdate: op({
    name: 'installNodeAvailableFirmwareUpdate',
    method: 'POST',
    path: '/node/:id/firmware-update',
    scope: 'homey.system.readonly',
    params: NodeParams,
    body: Type.Object({ softwareVersion: Type.Integer({ minimum: 0 }) }),
    response: OpenObject,
    summary: 'Installs the available firmware update, named by its softwareVersion.',
  }),
  nodeDiagnosticReport: op({
    name: 'nodeDiagnosticReport',
    summary: 'A diagnostic report of a Matter node: the node, its address, fabrics, firmware and attributes.',
    method: 'POST',
    path: '/node/:id/diagnostic-report',
    scope: 'homey.system.readonly',
    params: NodeParams,
    response: OpenObject,
  }),
  nodeThreadNetworkInformation: op({
    name: 'nodeThreadNetworkInformation',
    method: 'GET',
    path: '/node/:id/thread-network',
    scope: 'homey.system.readonly',
    params: NodeParams,
    response: OpenObject,
    summary: 'The Thread network of a node on Thread (400 for a node on Wi-Fi).',
  }),
  nodeWiFiNetworkInformation: op({
    name: 'nodeWiFiNetworkInformation',
    method: 'GET',
    path: '/node/:id/wifi-network',
    scope: 'homey.system.readonly',
    params: NodeParams,
    response: OpenObject,
    summary: 'The Wi-Fi network of a node on Wi-Fi (400 for a node on Thread).',
  }),
  openCommissioningWindow: op({
    name: 'openCommissioningWindow',
    method: 'POST',
    path: '/open-commissioning-window',
    scope: 'homey.system',
    private: true,
    body: Type.Object({
      deviceId: Type.String({ minLength: 1 }),
      timeout: Type.Optional(Type.Integer({ minimum: 180, maximum: 900 })),
      revokeExisting: Type.Optional(Type.Boolean()),
    }),
    response: OpenObject,
    summary: 'Opens a window in which another controller may join the node (multi-admin); answers its pairing codes.',
  }),
  getFabrics: op({
    name: 'getFabrics',
    method: 'GET',
    path: '/fabrics',
    scope: 'homey.system.readonly',
    query: Type.Object({ deviceId: Type.String({ minLength: 1 }) }),
    response: Type.Array(OpenObject),
    summary: 'The fabrics of the node of a device.',
  }),
  deleteFabric: op({
    name: 'deleteFabric',
    method: 'POST',
    path: '/delete-fabric',
    scope: 'homey.system',
    body: Type.Object({ deviceId: Type.String({ minLength: 1 }), fabricIndex: FabricIndex }),
    summary: 'Removes a fabric from the node of a device.',
  }),
  // Private tools of the older description: GET calls naming the node by `nodeId` in the query.
  updateDclPaaCerts: op({
    name: 'updateDclPaaCerts',
    method: 'GET',
    path: '/update-dcl-paa-certs',
    scope: 'homey.system',
    private: true,
    response: Type.Object({
      source: Type.String(),
      certificates: Type.Array(Type.Object({ vendorId: Type.Integer(), vendorName: Type.String() })),
      updatedAt: Type.String(),
    }),
    summary:
      'Fetches the product attestation authorities (PAA certificates) from the distributed compliance ledger named by ' +
      'the paaSettings option (older description).',
  }),
  interviewNode: op({
    name: 'interviewNode',
    method: 'GET',
    path: '/interview',
    scope: 'homey.system',
    private: true,
    query: NodeQuery,
    response: OpenObject,
    errors: ['not_found'],
    summary: 'Interviews a node again and answers it, as `POST /node/:id/force-update` does (older description).',
  }),
  makeDevice: op({
    name: 'makeDevice',
    method: 'GET',
    path: '/make-device',
    scope: 'homey.system',
    private: true,
    query: NodeQuery,
    response: Type.Object({ nodeId: Type.String(), deviceId: Type.String(), created: Type.Boolean() }),
    errors: ['not_found'],
    summary:
      "Makes the hub's device of a commissioned node; a node commissioned through pairing already has it, which is " +
      'answered with `created: false` (older description).',
  }),
  readBasicInfo: op({
    name: 'readBasicInfo',
    method: 'GET',
    path: '/read-basic-info',
    scope: 'homey.system',
    private: true,
    query: NodeQuery,
    response: Type.Object({
      nodeId: Type.String(),
      vendorId: Type.Integer(),
      vendorName: Type.String(),
      productName: Type.String(),
      nodeLabel: Type.String(),
      softwareVersion: Type.Integer(),
      reachable: Type.Boolean(),
    }),
    errors: ['not_found'],
    summary: "Reads a node's Basic Information cluster (older description).",
  }),
} as const;

/** Wire events of the Matter manager. */
export const matterEvents = managerEvents('matter', { events: optionEvents });
