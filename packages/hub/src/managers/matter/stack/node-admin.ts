import { type ClientNode, Crypto } from '@matter/main';
import { AdministratorCommissioningClient } from '@matter/main/behaviors/administrator-commissioning';
import { OperationalCredentialsClient } from '@matter/main/behaviors/operational-credentials';
import {
  BasicInformation,
  OperationalCredentials,
  ThreadNetworkDiagnostics,
  WiFiNetworkDiagnostics,
} from '@matter/main/clusters';
import { PaseClient, Read } from '@matter/main/protocol';
import { EndpointNumber, type FabricIndex, ManualPairingCodeCodec } from '@matter/main/types';
import { capabilityMappingsOf } from './device-types';

/**
 * What the hub asks a commissioned node beyond its capabilities: attributes, fabrics, commissioning windows for
 * other controllers, network diagnostics. Every answer is read from the node itself over its secure session.
 */

/** One attribute as read from the node, with the ids and names of the Matter data model. */
export type NodeAttribute = {
  endpoint: number;
  cluster: number;
  clusterName: string;
  attribute: number;
  attributeName: string;
  value: unknown;
};

/** A fabric (a controller's administrative domain) the node belongs to. */
export type NodeFabric = {
  fabricIndex: number;
  label: string;
  vendorId: number;
  fabricId: string;
  nodeId: string;
  /** Whether this is the fabric of the controller that asked (the hub's own). */
  isCurrent: boolean;
};

/** The Basic Information attributes the hub shows of a node. */
const BASIC_ATTRIBUTES = [
  'vendorName',
  'vendorId',
  'productName',
  'productId',
  'nodeLabel',
  'softwareVersion',
  'softwareVersionString',
  'serialNumber',
] as const;

/** JSON for attribute values: node ids and fabric ids are 64-bit (bigint), certificates and keys are bytes. */
function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : String(value);
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, plain(entry)]));
  return value;
}

/**
 * Reads from the node; every value it answered, by endpoint, cluster and attribute id. matter.js would otherwise
 * send the data versions it holds from the subscription, and the node would leave out every unchanged cluster:
 * a read here is meant to ask the node for its values.
 */
async function read(
  peer: ClientNode,
  request: Read,
): Promise<{ endpoint: number; cluster: number; attribute: number; value: unknown }[]> {
  const values = [];
  for await (const chunk of peer.interaction.read({ ...request, includeKnownVersions: true } as Read)) {
    for await (const report of chunk) {
      if (report.kind !== 'attr-value') continue;
      const { endpointId, clusterId, attributeId } = report.path;
      values.push({
        endpoint: Number(endpointId),
        cluster: Number(clusterId),
        attribute: Number(attributeId),
        value: report.value,
      });
    }
  }
  return values;
}

/** The name of an attribute id in a cluster's attribute map. */
function attributeName(attributes: Record<string, { id: number }>, id: number): string {
  return Object.entries(attributes).find(([, attribute]) => attribute.id === id)?.[0] ?? `attribute${id}`;
}

/**
 * The node's Basic Information (endpoint 0) and each supported capability's attribute on every endpoint, read
 * from the node now (not from the hub's subscription cache).
 */
export async function readNodeAttributes(peer: ClientNode): Promise<NodeAttribute[]> {
  const selectors: Read.Selector[] = [
    Read.Attribute({ endpoint: EndpointNumber(0), cluster: BasicInformation.Cluster, attributes: [...BASIC_ATTRIBUTES] }),
  ];
  const clusters = new Map<number, { name: string; attributes: Record<string, { id: number }> }>([
    [BasicInformation.Cluster.id, { name: BasicInformation.Cluster.name, attributes: BasicInformation.Cluster.attributes }],
  ]);
  for (const endpoint of peer.parts) {
    // One selector per cluster: several capabilities read the same cluster, some the same attribute (a thermostat's
    // target temperature and mode both read its SystemMode), which would otherwise be read and answered twice.
    const attributesOf = new Map<Read.AttributeSelector.Concrete<never>['cluster'], Set<string>>();
    for (const mapping of capabilityMappingsOf(endpoint)) {
      const cluster = (mapping.client as unknown as { cluster: Read.AttributeSelector.Concrete<never>['cluster'] }).cluster;
      const type = cluster as unknown as { id: number; name: string; attributes: Record<string, { id: number }> };
      clusters.set(type.id, { name: type.name, attributes: type.attributes });
      const attributes = attributesOf.get(cluster) ?? new Set<string>();
      for (const attribute of mapping.attributes) attributes.add(attribute);
      attributesOf.set(cluster, attributes);
    }
    for (const [cluster, attributes] of attributesOf)
      selectors.push(Read.Attribute({ endpoint: Number(endpoint.number), cluster, attributes: [...attributes] } as never));
  }
  return (await read(peer, Read(...selectors))).map(({ endpoint, cluster, attribute, value }) => {
    const type = clusters.get(cluster);
    return {
      endpoint,
      cluster,
      clusterName: type?.name ?? `cluster${cluster}`,
      attribute,
      attributeName: type ? attributeName(type.attributes, attribute) : `attribute${attribute}`,
      value: plain(value),
    };
  });
}

/** Every fabric of the node, other controllers' included (an unfiltered read: fabrics are fabric-scoped). */
export async function readNodeFabrics(peer: ClientNode): Promise<NodeFabric[]> {
  const values = await read(
    peer,
    Read(
      { fabricFilter: false },
      Read.Attribute({
        endpoint: EndpointNumber(0),
        cluster: OperationalCredentials.Cluster,
        attributes: ['fabrics', 'currentFabricIndex'],
      }),
    ),
  );
  const { fabrics: fabricsId, currentFabricIndex: currentId } = OperationalCredentials.Cluster.attributes;
  const fabrics = (values.find((v) => v.attribute === fabricsId.id)?.value ?? []) as OperationalCredentials.FabricDescriptor[];
  const current = Number(values.find((v) => v.attribute === currentId.id)?.value ?? 0);
  return fabrics.map((fabric) => ({
    fabricIndex: Number(fabric.fabricIndex),
    label: fabric.label,
    vendorId: Number(fabric.vendorId),
    fabricId: String(fabric.fabricId),
    nodeId: String(fabric.nodeId),
    isCurrent: Number(fabric.fabricIndex) === current,
  }));
}

/** Takes a fabric off the node (RemoveFabric of Operational Credentials). */
export async function removeNodeFabric(peer: ClientNode, fabricIndex: number): Promise<void> {
  await peer.commandsOf(OperationalCredentialsClient).removeFabric({ fabricIndex: fabricIndex as FabricIndex });
}

/** A commissioning window the hub opened on a node, with the codes another controller joins with. */
export interface CommissioningWindow {
  manualPairingCode: string;
  discriminator: number;
}

/**
 * Opens an enhanced commissioning window (a new one-time passcode, so the node's own code is never revealed) in
 * which another controller can commission the node onto its fabric (multi-admin).
 */
export async function openCommissioningWindow(
  peer: ClientNode,
  timeoutSeconds: number,
  revokeExisting: boolean,
): Promise<CommissioningWindow> {
  const commands = peer.commandsOf(AdministratorCommissioningClient);
  if (revokeExisting) {
    // Revoking when no window is open is refused by the node (WindowNotOpen): nothing to revoke is fine.
    await Promise.resolve(commands.revokeCommissioning()).catch(() => undefined);
  }
  const crypto = peer.env.get(Crypto);
  const passcode = PaseClient.generateRandomPasscode(crypto);
  const discriminator = PaseClient.generateRandomDiscriminator(crypto);
  const salt = crypto.randomBytes(32);
  // The specification's minimum PBKDF iteration count: the node derives the key once per joining attempt.
  const iterations = 1000;
  const verifier = await PaseClient.generatePakePasscodeVerifier(crypto, passcode, { iterations, salt });
  await commands.openCommissioningWindow({
    commissioningTimeout: timeoutSeconds,
    pakePasscodeVerifier: verifier as Uint8Array,
    discriminator,
    iterations,
    salt: salt as Uint8Array,
  });
  return { manualPairingCode: ManualPairingCodeCodec.encode({ discriminator, passcode }), discriminator };
}

/** The network a node reports in its diagnostics clusters (endpoint 0), or null when it has none of the kind. */
export async function readNodeNetwork(peer: ClientNode, network: 'thread' | 'wifi'): Promise<Record<string, unknown> | null> {
  const cluster = network === 'thread' ? ThreadNetworkDiagnostics.Cluster : WiFiNetworkDiagnostics.Cluster;
  const behavior = network === 'thread' ? 'threadNetworkDiagnostics' : 'wiFiNetworkDiagnostics';
  if (!peer.behaviors.has(behavior)) return null;
  const attributes = cluster.attributes as unknown as Record<string, { id: number }>;
  const values = await read(peer, Read(Read.Attribute({ endpoint: EndpointNumber(0), cluster } as never)));
  return Object.fromEntries(values.map((v) => [attributeName(attributes, v.attribute), plain(v.value)]));
}

/** Which IP network a node is on, by the diagnostics clusters of its root endpoint. */
export function transportOf(peer: ClientNode): 'thread' | 'wifi' | 'ethernet' | 'ip' {
  if (peer.behaviors.has('threadNetworkDiagnostics')) return 'thread';
  if (peer.behaviors.has('wiFiNetworkDiagnostics')) return 'wifi';
  if (peer.behaviors.has('ethernetNetworkDiagnostics')) return 'ethernet';
  return 'ip';
}

/** Reads the whole node again (every attribute of every endpoint), as an interview does. */
export async function reinterview(peer: ClientNode): Promise<number> {
  return (await read(peer, Read(Read.Attribute({})))).length;
}

/** The node's operational addresses as the controller last resolved them (DNS-SD). */
export function nodeAddresses(peer: ClientNode): { ip: string; port: number; type: string }[] {
  const addresses = (peer.maybeStateOf('commissioning') as { addresses?: { type: string; ip?: string; port?: number }[] })
    ?.addresses;
  return (addresses ?? [])
    .filter((a) => a.ip !== undefined)
    .map((a) => ({ ip: String(a.ip), port: Number(a.port), type: a.type }));
}
