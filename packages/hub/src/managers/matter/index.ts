import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { RadioNetwork } from '../../runtime/radio-network';
import { optionHandlers } from '../options';
import { MatterFabric } from './fabric';
import { SimulatedMatterController } from './simulated-controller';

/**
 * Matter: the nodes on the hub's own fabric (commissioned for real by the matter.js controller, `fabric.ts`) and,
 * beside them, the simulated nodes of the built-in simulated `matter` driver (`simulated-controller.ts`). The
 * calls beyond listing nodes answer for simulated nodes only so far.
 */
export const matterManager: HubManager = {
  name: 'matter',
  create: (context, services) => {
    const { devices, thread } = services;
    const matter = new SimulatedMatterController(context, devices, new RadioNetwork(context, devices, 'matter', 1), thread);
    const fabric = new MatterFabric(context, services);
    return {
      start: () => fabric.start(),
      stop: () => fabric.stop(),
      implementations: implement<typeof hubOperations.matter, HubPrincipal>(hubOperations.matter, {
        getState: () => ({
          nodes: fabric.nodes().length + matter.nodes().length,
          paaCertificatesUpdatedAt: matter.paaCertificatesUpdatedAt(),
        }),
        ...optionHandlers(context, 'matter', hubOperations.matter, { paaSettings: { default: {} } }),
        getMatterNodes: () => [...fabric.nodes(), ...matter.nodes()],
        getMatterNode: ({ params }) => fabric.node(params.id) ?? matter.node(params.id),
        deleteMatterNode: ({ params }) => {
          matter.deleteNode(params.id);
          return undefined;
        },
        getNodeFabrics: ({ params }) => matter.fabrics(params.id),
        getNodeAttributes: ({ params }) => matter.attributes(params.id),
        deleteNodeFabric: ({ params }) => {
          matter.deleteFabric(params.id, params.fabricIndex);
          return undefined;
        },
        resolveNodeAddress: ({ params }) => matter.nodeAddress(params.id),
        forceNodeUpdate: ({ params }) => matter.interview(params.id),
        getNodeAvailableFirmwareUpdate: ({ params }) => matter.firmwareUpdate(params.id),
        installNodeAvailableFirmwareUpdate: ({ params, body }) => matter.installFirmware(params.id, body.softwareVersion),
        nodeDiagnosticReport: ({ params }) => matter.diagnosticReport(params.id),
        nodeThreadNetworkInformation: ({ params }) => matter.nodeNetwork(params.id, 'thread'),
        nodeWiFiNetworkInformation: ({ params }) => matter.nodeNetwork(params.id, 'wifi'),
        openCommissioningWindow: ({ body }) => matter.openCommissioningWindow(body.deviceId, body.timeout, body.revokeExisting),
        getFabrics: ({ query }) => matter.fabrics(String(matter.nodeOfDevice(query.deviceId).id)),
        deleteFabric: ({ body }) => {
          matter.deleteFabric(String(matter.nodeOfDevice(body.deviceId).id), body.fabricIndex);
          return undefined;
        },
        pingNode: ({ params }) => ({
          id: matter.node(params.id).id,
          reachable: matter.node(params.id).reachable,
          rttMs: 31,
        }),
        updateDclPaaCerts: () => matter.updatePaaCertificates(),
        interviewNode: ({ query }) => matter.interview(query.nodeId),
        makeDevice: ({ query }) => matter.makeDevice(query.nodeId),
        readBasicInfo: ({ query }) => matter.basicInfo(query.nodeId),
      }),
    };
  },
};
