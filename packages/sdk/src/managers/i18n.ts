import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Manager } from './manager';

type Strings = Record<string, unknown>;

/**
 * `this.homey.i18n`: the app's translations (`locales/<language>.json` in the app's folder) in the hub's
 * language, falling back to English.
 */
export class ManagerI18n extends Manager {
  static ID = 'i18n';
  #strings: { own: Strings; en: Strings } | undefined;

  /**
   * Translates `key` (a dotted path into the locale file, e.g. `errors.unreachable`) or picks the hub's language
   * from an object (`{ en: 'On', nl: 'Aan' }`). `__name__` placeholders take the values of `tags`. A key without a
   * translation answers the key itself.
   */
  __(key: string | Record<string, string>, tags: object = {}): string {
    const language = this.getLanguage();
    let text: string;
    if (typeof key === 'object' && key !== null) {
      text = key[language] ?? key.en ?? Object.values(key)[0] ?? '';
    } else {
      const { own, en } = this.#load();
      const found = lookup(own, key) ?? lookup(en, key);
      text = typeof found === 'string' ? found : String(key);
    }
    return text.replace(/__([A-Za-z0-9_]+)__/g, (match, name: string) =>
      name in tags ? String((tags as Record<string, unknown>)[name]) : match,
    );
  }

  /** The hub's language, e.g. `en`. */
  getLanguage(): string {
    return this.bridge.init.language;
  }

  /** `metric` or `imperial`. */
  getUnits(): string {
    return this.bridge.init.units;
  }

  /** The app's translations in the hub's language. */
  getStrings(): Strings {
    return this.#load().own;
  }

  #load(): { own: Strings; en: Strings } {
    if (!this.#strings) {
      const read = (language: string): Strings => {
        const file = join(this.homey.dir, 'locales', `${language}.json`);
        if (!existsSync(file)) return {};
        try {
          return JSON.parse(readFileSync(file, 'utf8')) as Strings;
        } catch {
          this.error(`locales/${language}.json is not valid JSON`);
          return {};
        }
      };
      const en = read('en');
      this.#strings = { own: this.getLanguage() === 'en' ? en : read(this.getLanguage()), en };
    }
    return this.#strings;
  }
}

function lookup(strings: Strings, key: string): unknown {
  let node: unknown = strings;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Strings)[part];
  }
  return node;
}
