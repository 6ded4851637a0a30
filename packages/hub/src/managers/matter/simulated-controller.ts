import { randomBytes } from 'node:crypto';
import { HearthError, invalidParameter, notFound } from '@hearth/contract';
import type { HubContext } from '../../platform/context';
import { type RadioNetwork, settingOnce } from '../../runtime/radio-network';
import type { DeviceRecord, DeviceService } from '../devices/service';
import { readOption } from '../options';
import type { ThreadBorderRouter } from '../thread/border-router';
import { MATTER_CLUSTERS, PAA_AUTHORITIES } from './clusters';
import { MATTER_DRIVER_ID } from './fabric';

type Json = Record<string, unknown>;

export interface MatterAttribute {
  endpoint: number;
  cluster: number;
  clusterName: string;
  attribute: number;
  attributeName: string;
  value: unknown;
}

interface MatterFabric {
  fabricIndex: number;
  label: string;
  vendorId: number;
  fabricId: string;
  isCurrent: boolean;
}

/** The vendor id of the simulated nodes (a test vendor id of the Matter specification). */
const NODE_VENDOR_ID = 65521;
const NODE_VENDOR_NAME = 'Hearth Matter Lab';

/**
 * A simulation of Matter nodes, kept for the built-in `matter` driver's simulated thermostat (the demo world and
 * the tests of the manager's calls use it): its nodes are the paired devices of simulated Matter drivers, with
 * made-up fabrics, addresses and firmware; attributes are read from the device's capabilities. The hub's real
 * controller (`stack/`, `fabric.ts`) commissions real nodes; its devices are not part of this simulation.
 */
export class SimulatedMatterController {
  constructor(
    private readonly context: HubContext,
    private readonly devices: DeviceService,
    private readonly network: RadioNetwork,
    private readonly thread: ThreadBorderRouter,
  ) {}

  private now(): string {
    return new Date(this.context.clock.now()).toISOString();
  }

  nodes(): Json[] {
    return this.network
      .nodes()
      .filter((d) => d.driverId !== MATTER_DRIVER_ID)
      .map((d) => ({
        id: String(this.network.nodeIdOf(d)),
        deviceId: d.id,
        name: d.name,
        vendorName: NODE_VENDOR_NAME,
        productName: this.devices.driverOf(d)?.driver.class ?? d.class,
        transport: (this.devices.driverOf(d)?.driver.connectivity ?? []).includes('thread') ? 'thread' : 'wifi',
        reachable: this.network.available(d),
        simulated: true,
      }));
  }

  node(id: string): Json {
    const node = this.nodes().find((n) => n.id === id);
    if (!node) throw notFound('Matter node', id);
    return node;
  }

  deleteNode(id: string): void {
    const node = this.node(id);
    // Removing the node decommissions the device: it leaves the hub with it.
    this.devices.delete(String(node.deviceId));
  }

  private deviceOf(id: string): DeviceRecord {
    const node = this.node(id);
    return this.devices.require(String(node.deviceId));
  }

  /** The node of a device (for the calls that name the device). */
  nodeOfDevice(deviceId: string): Json {
    const node = this.nodes().find((n) => n.deviceId === deviceId);
    if (!node) throw notFound('Matter device', deviceId);
    return node;
  }

  private fabricsKey = (deviceId: string) => `matter.fabrics.${deviceId}`;

  fabrics(id: string): Json[] {
    const device = this.deviceOf(id);
    const own: MatterFabric = {
      fabricIndex: 1,
      label: 'Hearth',
      vendorId: 65521,
      fabricId: settingOnce(this.context, 'matter.fabricId', () => randomBytes(8).toString('hex')),
      isCurrent: true,
    };
    return [own, ...this.context.settings.get<MatterFabric[]>(this.fabricsKey(device.id), [])] as unknown as Json[];
  }

  /** Removes another controller's fabric; the hub's own fabric goes only with the node. */
  deleteFabric(id: string, fabricIndex: number): void {
    const device = this.deviceOf(id);
    if (fabricIndex === 1) {
      throw new HearthError('conflict', "The hub's own fabric is removed by removing the node");
    }
    const others = this.context.settings.get<MatterFabric[]>(this.fabricsKey(device.id), []);
    if (!others.some((f) => f.fabricIndex === fabricIndex)) throw notFound('Fabric', String(fabricIndex));
    this.context.settings.set(
      this.fabricsKey(device.id),
      others.filter((f) => f.fabricIndex !== fabricIndex),
    );
  }

  /**
   * Opens a commissioning window on a node for another controller (multi-admin). The simulated network has a
   * second controller waiting, which joins at once: the node gains its fabric.
   */
  openCommissioningWindow(deviceId: string, timeout = 300, revokeExisting = false): Json {
    const node = this.nodeOfDevice(deviceId);
    const others = this.context.settings.get<MatterFabric[]>(this.fabricsKey(deviceId), []);
    if (others.length >= 4) throw new HearthError('conflict', 'The node has no free fabric slot');
    const fabricIndex = Math.max(1, ...others.map((f) => f.fabricIndex)) + 1;
    this.context.settings.set(this.fabricsKey(deviceId), [
      ...others,
      { fabricIndex, label: 'Shared controller', vendorId: 65522, fabricId: randomBytes(8).toString('hex'), isCurrent: false },
    ]);
    const digits = Array.from(randomBytes(11), (b) => String(b % 10)).join('');
    return {
      nodeId: node.id,
      deviceId,
      manualPairingCode: digits,
      qrCode: `MT:${randomBytes(12).toString('base64url').toUpperCase().slice(0, 16)}`,
      revokedExisting: revokeExisting,
      expiresAt: new Date(this.context.clock.now() + timeout * 1000).toISOString(),
      joinedFabricIndex: fabricIndex,
    };
  }

  attributes(id: string): MatterAttribute[] {
    const node = this.node(id);
    const device = this.deviceOf(id);
    const basic = [
      [0x0001, 'VendorName', node.vendorName],
      [0x0002, 'VendorID', NODE_VENDOR_ID],
      [0x0003, 'ProductName', node.productName],
      [0x0005, 'NodeLabel', device.name],
      [0x0009, 'SoftwareVersion', this.softwareVersion(device.id)],
    ] as const;
    const attributes: MatterAttribute[] = basic.map(([attribute, attributeName, value]) => ({
      endpoint: 0,
      cluster: 0x0028,
      clusterName: 'BasicInformation',
      attribute,
      attributeName,
      value,
    }));
    for (const [capability, entry] of this.devices.values(device.id)) {
      const cluster = MATTER_CLUSTERS[capability];
      if (!cluster || entry.value === null) continue;
      const { map, ...ids } = cluster;
      attributes.push({ endpoint: 1, ...ids, value: map(entry.value) });
    }
    return attributes;
  }

  /** The node's Basic Information cluster as one object (the older description's `read-basic-info`). */
  basicInfo(id: string) {
    const node = this.node(id);
    const info = Object.fromEntries(
      this.attributes(id)
        .filter((a) => a.clusterName === 'BasicInformation')
        .map((a) => [a.attributeName, a.value]),
    );
    return {
      nodeId: String(node.id),
      vendorId: Number(info.VendorID),
      vendorName: String(info.VendorName),
      productName: String(info.ProductName),
      nodeLabel: String(info.NodeLabel),
      softwareVersion: Number(info.SoftwareVersion),
      reachable: node.reachable === true,
    };
  }

  /**
   * Makes the hub's device of a commissioned node. The simulated network commissions nodes only through pairing,
   * which made the device already: it is answered, never a second one.
   */
  makeDevice(id: string): { nodeId: string; deviceId: string; created: boolean } {
    const node = this.node(id);
    return { nodeId: String(node.id), deviceId: String(node.deviceId), created: false };
  }

  nodeAddress(id: string): Json {
    const node = this.node(id);
    const suffix = Number(node.id).toString(16).padStart(4, '0');
    return { id: node.id, addresses: [`fd00:4865:6172:7468::${suffix}`], port: 5540, transport: node.transport };
  }

  /** Interviews the node again: its reachability and attributes are read afresh. */
  interview(id: string): Json {
    this.context.settings.set(`matter.interviewedAt.${this.deviceOf(id).id}`, this.now());
    return this.nodeWithInterview(id);
  }

  private nodeWithInterview(id: string): Json {
    const device = this.deviceOf(id);
    return {
      ...this.node(id),
      lastInterviewAt: this.context.settings.get<string | null>(`matter.interviewedAt.${device.id}`, null),
    };
  }

  private softwareVersion(deviceId: string): number {
    return this.context.settings.get(`matter.softwareVersion.${deviceId}`, 1);
  }

  /** Every simulated node ships with version 1; version 2 (1.1.0) is available until installed. */
  firmwareUpdate(id: string): {
    softwareVersion: number;
    available: { softwareVersion: number; softwareVersionString: string } | null;
  } {
    const softwareVersion = this.softwareVersion(this.deviceOf(id).id);
    return { softwareVersion, available: softwareVersion < 2 ? { softwareVersion: 2, softwareVersionString: '1.1.0' } : null };
  }

  installFirmware(id: string, softwareVersion: number): Json {
    const device = this.deviceOf(id);
    const { available } = this.firmwareUpdate(id);
    if (!available) throw new HearthError('conflict', `Node ${id} has no firmware update available`);
    if (available.softwareVersion !== softwareVersion) {
      throw invalidParameter(
        'softwareVersion',
        `Version ${softwareVersion} is not available for node ${id}; ${available.softwareVersion} is`,
      );
    }
    this.context.settings.set(`matter.softwareVersion.${device.id}`, softwareVersion);
    return { id, softwareVersion, softwareVersionString: available.softwareVersionString };
  }

  diagnosticReport(id: string): Json {
    return {
      generatedAt: this.now(),
      node: this.nodeWithInterview(id),
      address: this.nodeAddress(id),
      fabrics: this.fabrics(id),
      firmware: this.firmwareUpdate(id),
      attributes: this.attributes(id),
    };
  }

  nodeNetwork(id: string, network: 'thread' | 'wifi'): Json {
    const node = this.node(id);
    if (node.transport !== network) {
      throw invalidParameter(
        'id',
        `Node ${id} is on ${node.transport === 'thread' ? 'Thread' : 'Wi-Fi'}, not ${network === 'thread' ? 'Thread' : 'Wi-Fi'}`,
      );
    }
    const device = this.deviceOf(id);
    if (network === 'wifi') {
      return { id, ssid: 'Hearth Home', bssid: '02:fc:00:00:00:10', channel: 6, rssi: -52, securityType: 'WPA2' };
    }
    const dataset = this.thread.dataset();
    return {
      id,
      networkName: dataset.networkName,
      channel: dataset.channel,
      panId: dataset.panId,
      extendedPanId: dataset.extendedPanId,
      rloc16: this.thread.childOf(device.id)?.rloc16 ?? null,
      role: 'child',
    };
  }

  /**
   * Fetches the product attestation authorities from the distributed compliance ledger: the test ledger's when the
   * paaSettings option says `{testNet: true}`, else the main one's. Commissioning checks a device's attestation
   * against them.
   */
  updatePaaCertificates() {
    const settings = readOption<Record<string, unknown>>(this.context, 'matter', 'paaSettings', {});
    const testNet = settings.testNet === true;
    const certificates = PAA_AUTHORITIES.filter((authority) => testNet || !authority.testOnly).map(
      ({ vendorId, vendorName }) => ({
        vendorId,
        vendorName,
      }),
    );
    const updatedAt = this.now();
    this.context.settings.set('matter.paaCertificatesUpdatedAt', updatedAt);
    return {
      source: testNet ? 'https://on.test-net.dcl.csa-iot.org' : 'https://on.dcl.csa-iot.org',
      certificates,
      updatedAt,
    };
  }

  /** When the PAA certificates were last fetched, for the manager's state. */
  paaCertificatesUpdatedAt(): string | null {
    return this.context.settings.get<string | null>('matter.paaCertificatesUpdatedAt', null);
  }
}
