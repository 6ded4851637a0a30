import { HUB_SCOPES, hasScope } from '@hearth/contract/scopes';
import { strings } from '../../app/strings';

const t = strings.people;

/** The hub's scopes by area (`homey.device.readonly` → `device`), offered only where the session holds them. */
function areas(held: readonly string[] | null): [string, string[]][] {
  const byArea = new Map<string, string[]>();
  for (const scope of HUB_SCOPES) {
    if (!hasScope(held, scope)) continue;
    const area = scope.split('.')[1] as string;
    byArea.set(area, [...(byArea.get(area) ?? []), scope]);
  }
  return [...byArea];
}

/** A level's words: the area's whole scope is "everything", the others by their last segment. */
const levelOf = (scope: string): string => {
  const level = scope.split('.')[2];
  return level === undefined ? t.levels.all : (t.levels[level as keyof typeof t.levels] ?? level);
};

/**
 * Checkboxes for the scopes a new token gets, one group per area of the hub (devices, flows, …). A token can never
 * do more than the session creating it, so only the scopes the session holds are offered. Each box is named
 * `scope` in the form.
 */
export function ScopePicker({ held }: { held: readonly string[] | null }) {
  return (
    <div className="scope-picker">
      {areas(held).map(([area, scopes]) => (
        <fieldset key={area} className="scope-area">
          <legend>{t.areas[area as keyof typeof t.areas] ?? area}</legend>
          {scopes.map((scope) => (
            <label key={scope} className="scope-choice">
              <input type="checkbox" name="scope" value={scope} />
              <span>{levelOf(scope)}</span>
            </label>
          ))}
        </fieldset>
      ))}
    </div>
  );
}
