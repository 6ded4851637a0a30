import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { optionHandlers } from '../options';

/** Matter: the commissioned nodes (the paired Matter devices) and their fabrics. */
export const matterManager: HubManager = {
  name: 'matter',
  create: (context, services) => {
    const { radio } = services;
    return {
      implementations: implement<typeof hubOperations.matter, HubPrincipal>(hubOperations.matter, {
        getState: () => ({ nodes: radio.matterNodes().length }),
        ...optionHandlers(context, 'matter', hubOperations.matter, { paaSettings: { default: {} } }),
        getMatterNodes: () => radio.matterNodes(),
        getMatterNode: ({ params }) => radio.matterNode(params.id),
        deleteMatterNode: ({ params }) => {
          radio.deleteMatterNode(params.id);
          return undefined;
        },
        getNodeFabrics: ({ params }) => radio.matterFabrics(params.id),
        getNodeAttributes: ({ params }) => radio.matterAttributes(params.id),
        deleteNodeFabric: ({ params }) => {
          radio.deleteMatterFabric(params.id, params.fabricIndex);
          return undefined;
        },
        resolveNodeAddress: ({ params }) => radio.matterNodeAddress(params.id),
        forceNodeUpdate: ({ params }) => radio.updateMatterNode(params.id),
        getNodeAvailableFirmwareUpdate: ({ params }) => radio.matterFirmwareUpdate(params.id),
        installNodeAvailableFirmwareUpdate: ({ params, body }) => radio.installMatterFirmware(params.id, body.softwareVersion),
        nodeDiagnosticReport: ({ params }) => radio.matterDiagnosticReport(params.id),
        nodeThreadNetworkInformation: ({ params }) => radio.matterNodeNetwork(params.id, 'thread'),
        nodeWiFiNetworkInformation: ({ params }) => radio.matterNodeNetwork(params.id, 'wifi'),
        openCommissioningWindow: ({ body }) =>
          radio.openMatterCommissioningWindow(body.deviceId, body.timeout, body.revokeExisting),
        getFabrics: ({ query }) => radio.matterFabrics(String(radio.matterNodeOfDevice(query.deviceId).id)),
        deleteFabric: ({ body }) => {
          radio.deleteMatterFabric(String(radio.matterNodeOfDevice(body.deviceId).id), body.fabricIndex);
          return undefined;
        },
        pingNode: ({ params }) => ({
          id: radio.matterNode(params.id).id,
          reachable: radio.matterNode(params.id).reachable,
          rttMs: 31,
        }),
      }),
    };
  },
};
