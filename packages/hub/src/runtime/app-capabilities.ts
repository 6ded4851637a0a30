import type { AppCapabilities, CapabilityDefinition } from './capabilities';
import { type AppCapabilityManifest, type TranslatedText, translate } from './manifest';

const made = new WeakMap<object, AppCapabilities>();
const none: AppCapabilities = new Map();

/**
 * The capabilities an app declares in its manifest (`capabilities`), in the catalogue's form: its devices use
 * them like the hub's own while the app is installed. Texts are in English, as the catalogue's are. Made once
 * per manifest object.
 */
export function appCapabilities(manifest: { capabilities?: Record<string, AppCapabilityManifest> } | undefined): AppCapabilities {
  if (!manifest?.capabilities) return none;
  const known = made.get(manifest);
  if (known) return known;
  const text = (value: TranslatedText | undefined) => (value === undefined ? undefined : translate(value, 'en'));
  const capabilities = new Map<string, CapabilityDefinition>(
    Object.entries(manifest.capabilities).map(([id, c]) => {
      const definition: CapabilityDefinition = {
        id,
        type: c.type,
        title: translate(c.title, 'en'),
        getable: c.getable ?? true,
        setable: c.setable ?? true,
        ...(c.desc !== undefined ? { desc: text(c.desc) as string } : {}),
        ...(c.units !== undefined ? { units: text(c.units) as string } : {}),
        ...(c.min !== undefined ? { min: c.min } : {}),
        ...(c.max !== undefined ? { max: c.max } : {}),
        ...(c.step !== undefined ? { step: c.step } : {}),
        ...(c.decimals !== undefined ? { decimals: c.decimals } : {}),
        ...(c.values ? { values: c.values.map((v) => ({ id: v.id, title: translate(v.title, 'en') })) } : {}),
        ...(c.titleTrue !== undefined ? { titleTrue: text(c.titleTrue) as string } : {}),
        ...(c.titleFalse !== undefined ? { titleFalse: text(c.titleFalse) as string } : {}),
        ...(c.uiComponent ? { uiComponent: c.uiComponent } : {}),
      };
      return [id, Object.freeze(definition)];
    }),
  );
  made.set(manifest, capabilities);
  return capabilities;
}
