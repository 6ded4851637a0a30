/** The words for uninstalling an app: a part of the catalogue in strings.ts, kept apart for its length. */
const names = (list: readonly string[]) => list.join(', ');

export const uninstallStrings = {
  uninstall: 'Uninstall',
  uninstallName: (name: string) => `Uninstall ${name}`,
  question: (name: string) => `Uninstall ${name}?`,
  nothingElse: 'It has no devices here, and no flow uses its cards.',
  devices: (list: readonly string[]) =>
    list.length === 1 ? `Its device ${list[0]} is removed.` : `Its ${list.length} devices are removed: ${names(list)}.`,
  flows: (list: readonly string[]) =>
    list.length === 1
      ? `The flow ${list[0]} uses its cards or devices: it stays, but stops working until you change it.`
      : `${list.length} flows use its cards or devices: they stay, but stop working until you change them: ${names(list)}.`,
  settingsKept: 'Its settings are kept, should you install it again.',
  confirm: (name: string) => `Uninstall ${name} now`,
  keep: 'Keep it',
  done: (name: string) => `${name} was uninstalled.`,
  refused: (name: string, reason: string) => `${name} was not uninstalled. ${reason}`,
} as const;
