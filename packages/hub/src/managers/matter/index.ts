import { HearthError, hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { optionHandlers } from '../options';
import { MatterFabric } from './fabric';
import { matterMigrations } from './migrations';
import { MatterNodeCalls, NO_DCL } from './node-calls';

/**
 * Matter: the nodes on the hub's own fabric, commissioned and controlled by the hub's matter.js controller
 * (`fabric.ts`, `stack/`). Every call answers from the nodes themselves; there is no simulated node.
 */
export const matterManager: HubManager = {
  name: 'matter',
  migrations: matterMigrations,
  create: (context, services) => {
    const fabric = new MatterFabric(context, services);
    const nodes = new MatterNodeCalls(context, fabric);
    return {
      start: () => fabric.start(),
      stop: () => fabric.stop(),
      implementations: implement<typeof hubOperations.matter, HubPrincipal>(hubOperations.matter, {
        getState: () => ({
          controller: 'matter.js',
          running: fabric.running(),
          nodes: fabric.peers().length,
          paaCertificatesUpdatedAt: null,
        }),
        ...optionHandlers(context, 'matter', hubOperations.matter, { paaSettings: { default: {} } }),
        getMatterNodes: () => fabric.nodes(),
        getMatterNode: ({ params }) => nodes.node(params.id),
        deleteMatterNode: async ({ params }) => {
          await nodes.deleteNode(params.id);
          return undefined;
        },
        getNodeFabrics: ({ params }) => nodes.fabrics(params.id),
        getNodeAttributes: ({ params }) => nodes.attributes(params.id),
        deleteNodeFabric: async ({ params }) => {
          await nodes.deleteFabric(params.id, params.fabricIndex);
          return undefined;
        },
        resolveNodeAddress: ({ params }) => nodes.address(params.id),
        forceNodeUpdate: ({ params }) => nodes.interview(params.id),
        getNodeAvailableFirmwareUpdate: ({ params }) => nodes.firmwareUpdate(params.id),
        installNodeAvailableFirmwareUpdate: ({ params, body }) => nodes.installFirmware(params.id, body.softwareVersion),
        nodeDiagnosticReport: ({ params }) => nodes.diagnosticReport(params.id),
        nodeThreadNetworkInformation: ({ params }) => nodes.network(params.id, 'thread'),
        nodeWiFiNetworkInformation: ({ params }) => nodes.network(params.id, 'wifi'),
        openCommissioningWindow: ({ body }) => nodes.openCommissioningWindow(body.deviceId, body.timeout, body.revokeExisting),
        getFabrics: ({ query }) => nodes.fabricsOfDevice(query.deviceId),
        deleteFabric: async ({ body }) => {
          await nodes.deleteFabricOfDevice(body.deviceId, body.fabricIndex);
          return undefined;
        },
        pingNode: ({ params }) => nodes.ping(params.id),
        // The attestation authorities live in the DCL, which this hub cannot reach: said, not invented.
        updateDclPaaCerts: () => {
          throw new HearthError('conflict', NO_DCL);
        },
        interviewNode: ({ query }) => nodes.interview(query.nodeId),
        makeDevice: ({ query }) => nodes.makeDevice(query.nodeId),
        readBasicInfo: ({ query }) => nodes.basicInfo(query.nodeId),
      }),
    };
  },
};
