/* German: zones, flow management, energy, values, the MQTT bridge and uninstalling (parts of de.ts, kept apart for length). */
import type { Catalogue } from '@hearth/i18n';
import type { en } from '../strings-en';

type Home = Catalogue<typeof en>;
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const names = (list: readonly string[]) => list.join(', ');

export const deUninstall: Home['apps']['remove'] = {
  uninstall: 'Deinstallieren',
  uninstallName: (name: string) => `${name} deinstallieren`,
  question: (name: string) => `${name} deinstallieren?`,
  nothingElse: 'Sie hat hier keine Geräte, und kein Flow nutzt ihre Karten.',
  devices: (list: readonly string[]) =>
    list.length === 1 ? `Ihr Gerät ${list[0]} wird entfernt.` : `Ihre ${list.length} Geräte werden entfernt: ${names(list)}.`,
  flows: (list: readonly string[]) =>
    list.length === 1
      ? `Der Flow ${list[0]} nutzt ihre Karten oder Geräte: Er bleibt, funktioniert aber nicht mehr, bis du ihn änderst.`
      : `${list.length} Flows nutzen ihre Karten oder Geräte: Sie bleiben, funktionieren aber nicht mehr, bis du sie änderst: ${names(list)}.`,
  settingsKept: 'Ihre Einstellungen bleiben erhalten, falls du sie wieder installierst.',
  confirm: (name: string) => `${name} jetzt deinstallieren`,
  keep: 'Behalten',
  done: (name: string) => `${name} wurde deinstalliert.`,
  refused: (name: string, reason: string) => `${name} wurde nicht deinstalliert. ${reason}`,
};

export const deParts: Pick<Home, 'zones' | 'flowManage' | 'energy' | 'values' | 'mqtt' | 'zigbeePairing' | 'matterPairing'> = {
  zones: {
    title: 'Zonen',
    manage: 'Zonen',
    intro: 'Die Räume und Etagen des Zuhauses. Jedes Gerät ist in einer Zone; eine Zone kann andere Zonen enthalten.',
    tree: 'Zonen des Zuhauses',
    holds: (devices: number, zones: number) =>
      devices === 0 && zones === 0
        ? 'leer'
        : [devices > 0 ? count(devices, 'Gerät', 'Geräte') : '', zones > 0 ? count(zones, 'Zone', 'Zonen') : '']
            .filter(Boolean)
            .join(', '),
    top: 'die oberste Zone',
    edit: 'Ändern',
    editName: (name: string) => `${name} ändern`,
    close: 'Fertig',
    closeName: (name: string) => `Fertig mit ${name}`,
    name: 'Name',
    nameRequired: 'Eine Zone braucht einen Namen.',
    rename: 'Umbenennen',
    renamed: (name: string) => `Umbenannt in ${name}.`,
    parent: 'Innerhalb von',
    move: 'Verschieben',
    moved: (name: string, parent: string) => `${name} ist jetzt in ${parent}.`,
    new: 'Neue Zone',
    create: 'Zone anlegen',
    created: (name: string) => `${name} wurde angelegt.`,
    deleteName: (name: string) => `${name} löschen`,
    deleteEmpty: (name: string) => `${name} löschen? Sie enthält keine Geräte und keine Zonen.`,
    deleteQuestion: (name: string) => `${name} löschen?`,
    devicesMove: (devices: readonly string[], parent: string) =>
      devices.length === 1
        ? `Ihr Gerät ${devices[0]} kommt nach ${parent}.`
        : `Ihre ${devices.length} Geräte kommen nach ${parent}: ${names(devices)}.`,
    zonesMove: (zones: readonly string[], parent: string) =>
      zones.length === 1
        ? `Ihre Zone ${zones[0]} kommt mit allem darin nach ${parent}.`
        : `Ihre ${zones.length} Zonen kommen mit allem darin nach ${parent}: ${names(zones)}.`,
    deleteConfirm: (name: string) => `${name} jetzt löschen`,
    keep: 'Behalten',
    deleted: (name: string) => `${name} wurde gelöscht.`,
    notDeleted: (name: string, reason: string) => `${name} wurde nicht gelöscht. ${reason}`,
    refused: (name: string, reason: string) => `${name} wurde nicht geändert. ${reason}`,
    topZone:
      'Das ist die oberste Zone des Zuhauses: Sie enthält alle anderen Zonen und kann daher weder verschoben noch gelöscht werden.',
  },
  flowManage: {
    manage: 'Ordner, Kopie und Löschen',
    folder: 'Ordner',
    noFolder: 'In keinem Ordner',
    move: 'Verschieben',
    moved: (name: string, folder: string) => `${name} ist jetzt in ${folder}.`,
    duplicate: 'Duplizieren',
    duplicateName: (name: string) => `${name} duplizieren`,
    copyName: (name: string) => `${name} (Kopie)`,
    duplicated: (name: string) => `${name} wurde angelegt, ausgeschaltet: Schalte ihn ein, wenn er fertig ist.`,
    notDuplicated: (name: string, reason: string) => `${name} wurde nicht dupliziert. ${reason}`,
    remove: 'Diesen Flow löschen',
    removeQuestion: (name: string) => `${name} löschen? Er läuft nicht mehr, und seine Ausführungen werden nicht mehr gezeigt.`,
    removeConfirm: (name: string) => `${name} jetzt löschen`,
    keep: 'Behalten',
    removed: (name: string) => `${name} wurde gelöscht.`,
    notRemoved: (name: string, reason: string) => `${name} wurde nicht gelöscht. ${reason}`,
    refused: (name: string, reason: string) => `${name} wurde nicht geändert. ${reason}`,
    folders: {
      new: 'Neuer Ordner',
      name: 'Name',
      nameRequired: 'Ein Ordner braucht einen Namen.',
      create: 'Ordner anlegen',
      created: (name: string) => `Der Ordner ${name} wurde angelegt.`,
      empty: 'Noch keine Flows in diesem Ordner. Verschiebe einen von seiner Seite hierher.',
      rename: 'Umbenennen',
      renameName: (name: string) => `Den Ordner ${name} umbenennen`,
      save: 'Namen speichern',
      cancel: 'Abbrechen',
      renamed: (name: string) => `Der Ordner heißt jetzt ${name}.`,
      refused: (reason: string) => `Der Ordner wurde nicht geändert. ${reason}`,
    },
  },
  energy: {
    title: 'Energie',
    now: 'Jetzt',
    using: (watts: string) => `Jetzt ${watts} Verbrauch`,
    costPerHour: (cost: string) => `${cost} pro Stunde`,
    fromMeter: (meters: string) => `Gemessen von ${meters}.`,
    fromDevices: 'Die Geräte, die ihre Leistung melden, zusammengezählt.',
    devices: 'Geräte',
    noLive: 'Kein Gerät meldet seine Leistung.',
    meters: 'Zähler',
    report: 'Bericht',
    period: 'Zeitraum',
    periods: { day: 'Tag', week: 'Woche', month: 'Monat', year: 'Jahr' },
    previous: 'Früher',
    next: 'Später',
    total: (kWh: string, cost: string) => `${kWh} verbraucht, Kosten ${cost}`,
    noReport: 'In diesem Zeitraum wurde keine Energie erfasst.',
    byDevice: 'Nach Gerät',
    chart: (period: string, total: string) => `Energieverbrauch je Teil des Zeitraums (${period}), insgesamt ${total}.`,
    chartSeries: 'Energieverbrauch (kWh)',
    chartPart: { day: 'Stunde', week: 'Tag', month: 'Tag', year: 'Monat' },
    approximated: 'geschätzt',
  },
  values: {
    on: 'An',
    off: 'Aus',
    alarm: 'Alarm',
    ok: 'OK',
    locked: 'Verriegelt',
    unlocked: 'Entriegelt',
    lock: (name: string) => `${name} verriegeln`,
    unlock: (name: string) => `${name} entriegeln`,
    cancel: 'Abbrechen',
    press: 'Drücken',
    pressName: (name: string) => `${name} drücken`,
    lower: (title: string) => `${title} senken`,
    raise: (title: string) => `${title} erhöhen`,
    coverings: { up: 'Öffnen', idle: 'Stopp', down: 'Schließen' },
    dismiss: 'Schließen',
    runStatus: {
      running: 'Läuft',
      waiting: 'Wartet auf eine Verzögerung',
      completed: 'Abgeschlossen',
      conditions_failed: 'Bedingungen nicht erfüllt',
      failed: 'Fehlgeschlagen',
      skipped: 'Übersprungen',
      restarted: 'Neu gestartet',
      cancelled: 'Abgebrochen',
    },
    resolutions: {
      lastHour: 'Letzte Stunde',
      last6Hours: 'Letzte 6 Stunden',
      last24Hours: 'Letzte 24 Stunden',
      last7Days: 'Letzte 7 Tage',
      last14Days: 'Letzte 14 Tage',
      last31Days: 'Letzte 31 Tage',
      lastYear: 'Letztes Jahr',
      last2Years: 'Letzte 2 Jahre',
    },
  },
  mqtt: {
    title: 'MQTT-Brücke',
    link: 'MQTT-Brücke (zigbee2mqtt, Tasmota, Shelly, ESPHome)',
    back: 'Zurück zu System',
    intro:
      'Der Hub verbindet die Geräte, die ein MQTT-Broker trägt: die Zigbee-Geräte von zigbee2mqtt und Geräte, die sich über die Discovery von Home Assistant melden (Tasmota, Shelly, ESPHome).',
    status: 'Verbindung',
    states: {
      disabled: 'Kein Broker eingestellt.',
      connecting: 'Verbinden…',
      connected: 'Verbunden',
      disconnected: 'Nicht verbunden',
    },
    connectedSince: (url: string, at: string) => `Verbunden mit ${url} seit ${at}`,
    why: (reason: string) => `Grund: ${reason}`,
    nextAttempt: (at: string) => `Nächster Versuch um ${at}.`,
    fromEnvironment:
      'Dieser Broker kommt aus der Umgebung des Hubs (HUB_MQTT_URL). Ein hier gespeicherter Broker tritt an seine Stelle.',
    fromSetting: 'Dieser Broker wurde hier gespeichert.',
    devices: (n: number) => (n === 1 ? 'Die Brücke hat 1 Gerät angelegt.' : `Die Brücke hat ${n} Geräte angelegt.`),
    broker: 'Broker',
    url: 'Broker-URL',
    urlHint: 'mqtt://, mqtts:// (TLS), ws:// oder wss://, z. B. mqtt://192.168.1.20:1883',
    urlInvalid: 'Gib eine URL ein, die mit mqtt://, mqtts://, ws:// oder wss:// beginnt.',
    username: 'Benutzername (optional)',
    password: 'Passwort (optional)',
    passwordHint: 'Wird nach dem Speichern nie wieder angezeigt. Gib es bei jedem Speichern des Brokers erneut ein.',
    clientId: 'Client-ID (optional)',
    clientIdHint: (fallback: string) => `Leer: ${fallback}`,
    baseTopic: 'Basis-Topic von zigbee2mqtt',
    ca: 'TLS-Zertifizierungsstelle (optional, PEM)',
    caHint: 'Für einen Broker, dessen Zertifikat deine eigene CA signiert hat. Leer lassen, um den CAs des Systems zu vertrauen.',
    caKept: 'Für diesen Broker ist eine eigene CA eingestellt; füge sie beim Speichern erneut ein.',
    caInvalid: 'Füge ein Zertifikat im PEM-Format ein (-----BEGIN CERTIFICATE----- …).',
    save: 'Speichern und verbinden',
    saved: 'Broker gespeichert; die Brücke verbindet sich.',
    forget: 'Diesen Broker vergessen',
    forgotten: 'Der gespeicherte Broker ist vergessen.',
    zigbee2mqtt: 'zigbee2mqtt',
    noZigbee2mqtt: 'zigbee2mqtt hat sich auf diesem Broker noch nicht gemeldet.',
    online: (online: boolean | null) =>
      online === null ? 'zigbee2mqtt hat nicht gesagt, ob es läuft.' : online ? 'zigbee2mqtt läuft.' : 'zigbee2mqtt ist offline.',
    facts: (version: string | null, coordinator: string | null, channel: number | null) =>
      [
        version ? `Version ${version}` : null,
        coordinator ? `Koordinator ${coordinator}` : null,
        channel ? `Kanal ${channel}` : null,
      ]
        .filter(Boolean)
        .join(', '),
    joinOpen: (left: string) => `Neue Geräte können noch ${left} beitreten.`,
    joinClosed: 'Das Zigbee-Netzwerk ist für neue Geräte geschlossen.',
    permitJoin: 'Geräte beitreten lassen (4 Min.)',
    closeJoin: 'Netzwerk schließen',
    recent: 'Letzte Ereignisse',
    events: {
      device_joined: 'beigetreten',
      device_announce: 'hat sich gemeldet',
      device_interview: 'Abfrage',
      device_leave: 'hat das Netzwerk verlassen',
    },
  },
  matterPairing: {
    intro:
      'Versetze das Matter-Gerät im selben Netzwerk wie der Hub in den Kopplungsmodus und gib dann seinen Einrichtungscode ein: die 11 oder 21 Ziffern auf dem Gerät oder der Verpackung.',
    code: 'Einrichtungscode',
    codeHint: 'Ziffern mit oder ohne Bindestriche (1234-567-8901) oder der Text des QR-Codes, der mit MT: beginnt',
    commission: 'Gerät hinzufügen',
    commissioning: 'Das Gerät wird im Netzwerk gesucht und dem Hub hinzugefügt… das kann eine Minute dauern.',
  },
  zigbeePairing: {
    opening: 'Das Zigbee-Netzwerk wird geöffnet…',
    open: (until: string) =>
      `Das Zigbee-Netzwerk ist offen (bis ${until}, und länger, solange diese Seite offen bleibt). Versetze das Gerät jetzt in den Kopplungsmodus, wie seine Anleitung sagt.`,
    waiting: 'Noch ist kein Gerät beigetreten.',
    joined: 'Beigetretene Geräte',
    status: {
      joined: 'beigetreten, wartet auf Abfrage',
      interviewing: 'wird abgefragt',
      interviewed: 'abgefragt, wird hinzugefügt',
      failed: 'Abfrage fehlgeschlagen: Setze das Gerät zurück und versuche es erneut',
      added: 'hinzugefügt',
    },
    done: 'Fertig',
  },
};
