import { HearthError, invalidParameter } from '@hearth/contract';
import type { ClientNode } from '@matter/main';
import type { HubContext } from '../../platform/context';
import type { MatterFabric } from './fabric';
import {
  nodeAddresses,
  openCommissioningWindow,
  readNodeAttributes,
  readNodeFabrics,
  readNodeNetwork,
  reinterview,
  removeNodeFabric,
} from './stack/node-admin';

type Json = Record<string, unknown>;

/** How long the hub waits for a node to answer one of the manager's calls before it says the node did not answer. */
const NODE_ANSWER_MS = 10_000;

/** Why firmware and attestation data are not looked up: this hub has no distributed compliance ledger to ask. */
export const NO_DCL =
  'This hub has no connection to the distributed compliance ledger (DCL) of the Connectivity Standards Alliance: ' +
  'firmware updates and attestation authorities cannot be looked up';

/**
 * The matter manager's calls about nodes, each answered by the node itself through the hub's matter.js
 * controller: nodes are the peers on the hub's fabric, ids are the controller's peer ids.
 */
export class MatterNodeCalls {
  constructor(
    private readonly context: HubContext,
    private readonly fabric: MatterFabric,
  ) {}

  /** Waits for the node's answer; a node that does not answer in time is a 503 naming what was asked. */
  async #ask<T>(peer: ClientNode, doing: string, work: () => Promise<T>): Promise<T> {
    let cancel: (() => void) | undefined;
    const timeout = new Promise<never>((_, reject) => {
      cancel = this.context.clock.setTimeout(
        () =>
          reject(
            new HearthError('unavailable', `Matter node ${peer.id} did not answer (${doing}) within ${NODE_ANSWER_MS / 1000} s`),
          ),
        NODE_ANSWER_MS,
      );
    });
    try {
      return await Promise.race([work(), timeout]);
    } catch (error) {
      if (error instanceof HearthError) throw error;
      const message = error instanceof Error ? error.message : String(error);
      throw new HearthError('unavailable', `Matter node ${peer.id} failed ${doing}: ${message}`);
    } finally {
      cancel?.();
    }
  }

  node(id: string): Json {
    return this.fabric.view(this.fabric.peer(id));
  }

  async deleteNode(id: string): Promise<void> {
    const peer = this.fabric.peer(id);
    await this.#ask(peer, 'leaving its fabric', () => this.fabric.removeNode(peer));
  }

  attributes(id: string) {
    const peer = this.fabric.peer(id);
    return this.#ask(peer, 'reading its attributes', () => readNodeAttributes(peer));
  }

  async basicInfo(id: string) {
    const peer = this.fabric.peer(id);
    const attributes = await this.attributes(id);
    const basic = Object.fromEntries(
      attributes.filter((a) => a.clusterName === 'BasicInformation').map((a) => [a.attributeName, a.value]),
    );
    return {
      nodeId: peer.id,
      vendorId: Number(basic.vendorId),
      vendorName: String(basic.vendorName ?? ''),
      productName: String(basic.productName ?? ''),
      nodeLabel: String(basic.nodeLabel ?? ''),
      softwareVersion: Number(basic.softwareVersion ?? 0),
      reachable: peer.lifecycle.isOnline,
    };
  }

  fabrics(id: string) {
    const peer = this.fabric.peer(id);
    return this.#ask(peer, 'reading its fabrics', () => readNodeFabrics(peer));
  }

  fabricsOfDevice(deviceId: string) {
    return this.fabrics(this.fabric.peerOfDevice(deviceId).id);
  }

  /** Takes another controller's fabric off the node; the hub's own fabric goes only by removing the node. */
  async deleteFabric(id: string, fabricIndex: number): Promise<void> {
    const fabrics = await this.fabrics(id);
    const fabric = fabrics.find((f) => f.fabricIndex === fabricIndex);
    if (!fabric) throw new HearthError('not_found', `Matter node ${id} has no fabric ${fabricIndex}`);
    if (fabric.isCurrent) throw new HearthError('conflict', "The hub's own fabric is removed by removing the node");
    const peer = this.fabric.peer(id);
    await this.#ask(peer, `removing fabric ${fabricIndex}`, () => removeNodeFabric(peer, fabricIndex));
  }

  deleteFabricOfDevice(deviceId: string, fabricIndex: number) {
    return this.deleteFabric(this.fabric.peerOfDevice(deviceId).id, fabricIndex);
  }

  /** Opens a window in which another controller may commission the node of a device (multi-admin). */
  async openCommissioningWindow(deviceId: string, timeout = 300, revokeExisting = false): Promise<Json> {
    const peer = this.fabric.peerOfDevice(deviceId);
    const window = await this.#ask(peer, 'opening a commissioning window', () =>
      openCommissioningWindow(peer, timeout, revokeExisting),
    );
    return {
      nodeId: peer.id,
      deviceId,
      manualPairingCode: window.manualPairingCode,
      discriminator: window.discriminator,
      revokedExisting: revokeExisting,
      expiresAt: new Date(this.context.clock.now() + timeout * 1000).toISOString(),
    };
  }

  /** Whether the node answers now, and the round trip of one read. */
  async ping(id: string): Promise<Json> {
    const peer = this.fabric.peer(id);
    const started = this.context.clock.now();
    try {
      await this.#ask(peer, 'a ping', () => readNodeFabrics(peer));
      return { id, reachable: true, rttMs: this.context.clock.now() - started };
    } catch (error) {
      return { id, reachable: false, rttMs: null, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  address(id: string): Json {
    const peer = this.fabric.peer(id);
    const addresses = nodeAddresses(peer);
    return {
      id,
      nodeId: this.fabric.view(peer).nodeId,
      addresses: addresses.map((a) => a.ip),
      port: addresses[0]?.port ?? null,
      transport: this.fabric.view(peer).transport,
    };
  }

  /** Reads the whole node again and answers it with when that was (kept in the hub's settings). */
  async interview(id: string): Promise<Json> {
    const peer = this.fabric.peer(id);
    const attributes = await this.#ask(peer, 'an interview', () => reinterview(peer));
    const at = new Date(this.context.clock.now()).toISOString();
    this.context.settings.set(this.#interviewKey(id), at);
    return { ...this.node(id), lastInterviewAt: at, attributesRead: attributes };
  }

  #interviewKey = (id: string) => `matter.interviewedAt.${id}`;

  /** The node's firmware version, read from it; no update is offered without a DCL to find one in. */
  async firmwareUpdate(id: string) {
    const info = await this.basicInfo(id);
    return { softwareVersion: info.softwareVersion, available: null, reason: NO_DCL };
  }

  async installFirmware(id: string, softwareVersion: number): Promise<never> {
    await this.firmwareUpdate(id);
    throw new HearthError('conflict', `Version ${softwareVersion} is not available for node ${id}: ${NO_DCL}`);
  }

  async diagnosticReport(id: string): Promise<Json> {
    return {
      generatedAt: new Date(this.context.clock.now()).toISOString(),
      node: { ...this.node(id), lastInterviewAt: this.context.settings.get<string | null>(this.#interviewKey(id), null) },
      address: this.address(id),
      fabrics: await this.fabrics(id),
      firmware: await this.firmwareUpdate(id),
      attributes: await this.attributes(id),
    };
  }

  /** The Thread or Wi-Fi network diagnostics of a node; 400 for a node that has no such network. */
  async network(id: string, network: 'thread' | 'wifi'): Promise<Json> {
    const peer = this.fabric.peer(id);
    const info = await this.#ask(peer, `reading its ${network} diagnostics`, () => readNodeNetwork(peer, network));
    if (!info) {
      const transport = this.fabric.view(peer).transport;
      throw invalidParameter(
        'id',
        `Node ${id} is on ${transport}, not ${network === 'thread' ? 'Thread' : 'Wi-Fi'}: it has no ${network === 'thread' ? 'Thread' : 'Wi-Fi'} Network Diagnostics cluster`,
      );
    }
    return { id, ...info };
  }

  makeDevice(id: string) {
    const peer = this.fabric.peer(id);
    const { created, devices } = this.fabric.makeDevices(peer);
    return { nodeId: peer.id, deviceId: devices[0]?.id ?? '', created };
  }
}
