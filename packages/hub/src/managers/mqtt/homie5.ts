/**
 * The Homie convention 5.0 (`homie/5/<device>/…`): a device describes itself in one retained JSON document,
 * `$description` (`{"homie":"5.0","version":…,"name":…,"nodes":{"<node>":{"properties":{"<property>":{"datatype":…,
 * "settable":…,"unit":…,"format":…}}}}}`), where 4.0 published one topic per attribute. Its `$state`, value topics and
 * `<property>/set` are 4.0's. The hub keeps a 5.0 device as `5/<device>` (its topics' path under the Homie root, so
 * its writes go to `<root>/5/<device>/<node>/<property>/set`) and reads its description into the attributes 4.0
 * devices publish, so that one mapping serves both.
 */

/** The path segment under the Homie root where 5.0 devices live. */
export const HOMIE_5 = '5';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** An id the convention allows for devices, nodes and properties: lower-case letters, digits and hyphens. */
const ID = /^[a-z0-9][a-z0-9-]*$/;

/**
 * Replaces a 5.0 device's attributes in `topics` by those its `$description` gives (`$name`, `$nodes`,
 * `<node>/$properties`, `<node>/<property>/$datatype` …, as 4.0 publishes them); its `$state` and values stay.
 * Throws, changing nothing, when the description is not JSON or not the convention's shape.
 */
export function describeHomie5Device(topics: Map<string, string>, description: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(description);
  } catch {
    throw new Error('$description is not JSON');
  }
  if (!isObject(parsed) || !isObject(parsed.nodes)) throw new Error('$description has no "nodes" object');
  if (typeof parsed.homie !== 'string' || !parsed.homie.startsWith('5.'))
    throw new Error(`$description is of Homie ${JSON.stringify(parsed.homie)}, not 5.x`);
  const attributes = new Map<string, string>();
  if (typeof parsed.name === 'string') attributes.set('$name', parsed.name);
  const nodes: string[] = [];
  for (const [nodeId, node] of Object.entries(parsed.nodes)) {
    if (!ID.test(nodeId) || !isObject(node) || !isObject(node.properties)) continue;
    nodes.push(nodeId);
    const properties: string[] = [];
    for (const [propertyId, property] of Object.entries(node.properties)) {
      if (!ID.test(propertyId) || !isObject(property) || typeof property.datatype !== 'string') continue;
      properties.push(propertyId);
      const path = `${nodeId}/${propertyId}`;
      attributes.set(`${path}/$datatype`, property.datatype);
      // 5.0's `settable` is a JSON boolean, false unless given.
      attributes.set(`${path}/$settable`, property.settable === true ? 'true' : 'false');
      for (const name of ['name', 'unit', 'format'] as const)
        if (typeof property[name] === 'string') attributes.set(`${path}/$${name}`, property[name]);
    }
    attributes.set(`${nodeId}/$properties`, properties.join(','));
  }
  attributes.set('$nodes', nodes.join(','));
  // Attributes of an earlier description (a property removed since) go; `$state`, `$description` and values stay.
  for (const key of [...topics.keys()]) if (key.includes('$') && key !== '$state' && key !== '$description') topics.delete(key);
  for (const [key, value] of attributes) topics.set(key, value);
}
