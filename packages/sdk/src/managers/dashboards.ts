import { Manager } from './manager';

export type SettingAutocompleteCallback = (
  query: string,
  settings: Record<string, unknown>,
) => Promise<{ name: string; [key: string]: unknown }[]> | { name: string; [key: string]: unknown }[];

/** A dashboard widget of the app (manifest `widgets`), for its settings' autocomplete listeners. */
export class Widget {
  readonly #listeners = new Map<string, SettingAutocompleteCallback>();

  constructor(readonly id: string) {}

  registerSettingAutocompleteListener(name: string, listener: SettingAutocompleteCallback): this {
    this.#listeners.set(name, listener);
    return this;
  }

  /** @internal */
  listener(name: string): SettingAutocompleteCallback | undefined {
    return this.#listeners.get(name);
  }
}

/** `this.homey.dashboards`: the app's dashboard widgets. */
export class ManagerDashboards extends Manager {
  static ID = 'dashboards';
  readonly #widgets = new Map<string, Widget>();

  /** The widget `id` of the manifest's `widgets`; throws for one it does not declare. */
  getWidget(id: string): Widget {
    const widgets = (this.homey.manifest.widgets ?? {}) as Record<string, unknown>;
    if (!(id in widgets)) throw new Error(`Invalid Widget: ${id}`);
    let widget = this.#widgets.get(id);
    if (!widget) {
      widget = new Widget(id);
      this.#widgets.set(id, widget);
    }
    return widget;
  }
}
