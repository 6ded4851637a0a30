/* Dutch: zones, flow management, energy, values, the MQTT bridge and uninstalling (parts of nl.ts, kept apart for length). */
import type { Catalogue } from '@hearth/i18n';
import type { en } from '../strings-en';

type Home = Catalogue<typeof en>;
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const names = (list: readonly string[]) => list.join(', ');

export const nlUninstall: Home['apps']['remove'] = {
  uninstall: 'Verwijderen',
  uninstallName: (name: string) => `${name} verwijderen`,
  question: (name: string) => `${name} verwijderen?`,
  nothingElse: 'Er zijn hier geen apparaten van, en geen flow gebruikt zijn kaarten.',
  devices: (list: readonly string[]) =>
    list.length === 1
      ? `Het apparaat ${list[0]} wordt verwijderd.`
      : `De ${list.length} apparaten worden verwijderd: ${names(list)}.`,
  flows: (list: readonly string[]) =>
    list.length === 1
      ? `De flow ${list[0]} gebruikt zijn kaarten of apparaten: die blijft, maar werkt niet meer tot je hem aanpast.`
      : `${list.length} flows gebruiken zijn kaarten of apparaten: ze blijven, maar werken niet meer tot je ze aanpast: ${names(list)}.`,
  settingsKept: 'De instellingen blijven bewaard, voor als je hem opnieuw installeert.',
  confirm: (name: string) => `${name} nu verwijderen`,
  keep: 'Behouden',
  done: (name: string) => `${name} is verwijderd.`,
  refused: (name: string, reason: string) => `${name} is niet verwijderd. ${reason}`,
};

export const nlParts: Pick<Home, 'zones' | 'flowManage' | 'energy' | 'values' | 'mqtt' | 'zigbeePairing' | 'matterPairing'> = {
  zones: {
    title: 'Zones',
    manage: 'Zones',
    intro: 'De kamers en verdiepingen van het huis. Elk apparaat zit in één zone; een zone kan andere zones bevatten.',
    tree: 'Zones van het huis',
    holds: (devices: number, zones: number) =>
      devices === 0 && zones === 0
        ? 'leeg'
        : [devices > 0 ? count(devices, 'apparaat', 'apparaten') : '', zones > 0 ? count(zones, 'zone', 'zones') : '']
            .filter(Boolean)
            .join(', '),
    top: 'de bovenste zone',
    edit: 'Wijzigen',
    editName: (name: string) => `${name} wijzigen`,
    close: 'Klaar',
    closeName: (name: string) => `Klaar met ${name}`,
    name: 'Naam',
    nameRequired: 'Een zone heeft een naam nodig.',
    rename: 'Hernoemen',
    renamed: (name: string) => `Hernoemd tot ${name}.`,
    parent: 'Binnen',
    move: 'Verplaatsen',
    moved: (name: string, parent: string) => `${name} zit nu in ${parent}.`,
    new: 'Nieuwe zone',
    create: 'Zone maken',
    created: (name: string) => `${name} is gemaakt.`,
    deleteName: (name: string) => `${name} verwijderen`,
    deleteEmpty: (name: string) => `${name} verwijderen? Er zitten geen apparaten en geen zones in.`,
    deleteQuestion: (name: string) => `${name} verwijderen?`,
    devicesMove: (devices: readonly string[], parent: string) =>
      devices.length === 1
        ? `Het apparaat ${devices[0]} gaat naar ${parent}.`
        : `De ${devices.length} apparaten gaan naar ${parent}: ${names(devices)}.`,
    zonesMove: (zones: readonly string[], parent: string) =>
      zones.length === 1
        ? `De zone ${zones[0]} gaat naar ${parent}, met alles erin.`
        : `De ${zones.length} zones gaan naar ${parent}, met alles erin: ${names(zones)}.`,
    deleteConfirm: (name: string) => `${name} nu verwijderen`,
    keep: 'Behouden',
    deleted: (name: string) => `${name} is verwijderd.`,
    notDeleted: (name: string, reason: string) => `${name} is niet verwijderd. ${reason}`,
    refused: (name: string, reason: string) => `${name} is niet gewijzigd. ${reason}`,
    topZone: 'Dit is de bovenste zone van het huis: hij bevat elke andere zone en kan dus niet worden verplaatst of verwijderd.',
  },
  flowManage: {
    manage: 'Map, kopie en verwijderen',
    folder: 'Map',
    noFolder: 'Niet in een map',
    move: 'Verplaatsen',
    moved: (name: string, folder: string) => `${name} staat nu in ${folder}.`,
    duplicate: 'Dupliceren',
    duplicateName: (name: string) => `${name} dupliceren`,
    copyName: (name: string) => `${name} (kopie)`,
    duplicated: (name: string) => `${name} is gemaakt, uitgeschakeld: zet hem aan als hij klaar is.`,
    notDuplicated: (name: string, reason: string) => `${name} is niet gedupliceerd. ${reason}`,
    remove: 'Deze flow verwijderen',
    removeQuestion: (name: string) => `${name} verwijderen? Hij draait niet meer en zijn uitvoeringen worden niet meer getoond.`,
    removeConfirm: (name: string) => `${name} nu verwijderen`,
    keep: 'Behouden',
    removed: (name: string) => `${name} is verwijderd.`,
    notRemoved: (name: string, reason: string) => `${name} is niet verwijderd. ${reason}`,
    refused: (name: string, reason: string) => `${name} is niet gewijzigd. ${reason}`,
    folders: {
      new: 'Nieuwe map',
      name: 'Naam',
      nameRequired: 'Een map heeft een naam nodig.',
      create: 'Map maken',
      created: (name: string) => `De map ${name} is gemaakt.`,
      empty: 'Nog geen flows in deze map. Verplaats er een hierheen vanaf zijn pagina.',
      rename: 'Hernoemen',
      renameName: (name: string) => `De map ${name} hernoemen`,
      save: 'Naam opslaan',
      cancel: 'Annuleren',
      renamed: (name: string) => `De map heet nu ${name}.`,
      refused: (reason: string) => `De map is niet gewijzigd. ${reason}`,
    },
  },
  energy: {
    title: 'Energie',
    now: 'Nu',
    using: (watts: string) => `Nu ${watts} in gebruik`,
    costPerHour: (cost: string) => `${cost} per uur`,
    fromMeter: (meters: string) => `Gemeten door ${meters}.`,
    fromDevices: 'De apparaten die hun vermogen melden, opgeteld.',
    devices: 'Apparaten',
    noLive: 'Geen apparaat meldt zijn vermogen.',
    meters: 'Meters',
    report: 'Overzicht',
    period: 'Periode',
    periods: { day: 'Dag', week: 'Week', month: 'Maand', year: 'Jaar' },
    previous: 'Eerder',
    next: 'Later',
    total: (kWh: string, cost: string) => `${kWh} verbruikt, kosten ${cost}`,
    noReport: 'In deze periode is geen energie geregistreerd.',
    byDevice: 'Per apparaat',
    chart: (period: string, total: string) => `Energieverbruik per deel van de ${period.toLowerCase()}, ${total} in totaal.`,
    chartSeries: 'Energieverbruik (kWh)',
    chartPart: { day: 'Uur', week: 'Dag', month: 'Dag', year: 'Maand' },
    approximated: 'geschat',
  },
  values: {
    on: 'Aan',
    off: 'Uit',
    alarm: 'Alarm',
    ok: 'OK',
    locked: 'Op slot',
    unlocked: 'Open',
    lock: (name: string) => `${name} op slot doen`,
    unlock: (name: string) => `${name} van het slot halen`,
    cancel: 'Annuleren',
    press: 'Indrukken',
    pressName: (name: string) => `${name} indrukken`,
    lower: (title: string) => `${title} lager`,
    raise: (title: string) => `${title} hoger`,
    coverings: { up: 'Openen', idle: 'Stoppen', down: 'Sluiten' },
    dismiss: 'Sluiten',
    runStatus: {
      running: 'Bezig',
      waiting: 'Wacht op een vertraging',
      completed: 'Voltooid',
      conditions_failed: 'Voorwaarden niet vervuld',
      failed: 'Mislukt',
      skipped: 'Overgeslagen',
      restarted: 'Herstart',
      cancelled: 'Geannuleerd',
    },
    resolutions: {
      lastHour: 'Afgelopen uur',
      last6Hours: 'Afgelopen 6 uur',
      last24Hours: 'Afgelopen 24 uur',
      last7Days: 'Afgelopen 7 dagen',
      last14Days: 'Afgelopen 14 dagen',
      last31Days: 'Afgelopen 31 dagen',
      lastYear: 'Afgelopen jaar',
      last2Years: 'Afgelopen 2 jaar',
    },
  },
  mqtt: {
    title: 'MQTT-brug',
    link: 'MQTT-brug (zigbee2mqtt, Tasmota, Shelly, ESPHome)',
    back: 'Terug naar Systeem',
    intro:
      'De hub overbrugt de apparaten die een MQTT-broker doorgeeft: de Zigbee-apparaten van zigbee2mqtt, en apparaten die zich aanmelden met de discovery van Home Assistant (Tasmota, Shelly, ESPHome).',
    status: 'Verbinding',
    states: {
      disabled: 'Er is geen broker ingesteld.',
      connecting: 'Verbinden…',
      connected: 'Verbonden',
      disconnected: 'Niet verbonden',
    },
    connectedSince: (url: string, at: string) => `Verbonden met ${url} sinds ${at}`,
    why: (reason: string) => `Waarom: ${reason}`,
    nextAttempt: (at: string) => `Volgende poging om ${at}.`,
    fromEnvironment:
      'Deze broker komt uit de omgeving van de hub (HUB_MQTT_URL). Een hier opgeslagen broker neemt zijn plaats in.',
    fromSetting: 'Deze broker is hier opgeslagen.',
    devices: (n: number) => (n === 1 ? 'De brug heeft 1 apparaat gemaakt.' : `De brug heeft ${n} apparaten gemaakt.`),
    broker: 'Broker',
    url: 'Broker-URL',
    urlHint: 'mqtt://, mqtts:// (TLS), ws:// of wss://, bijv. mqtt://192.168.1.20:1883',
    urlInvalid: 'Vul een URL in die begint met mqtt://, mqtts://, ws:// of wss://.',
    username: 'Gebruikersnaam (optioneel)',
    password: 'Wachtwoord (optioneel)',
    passwordHint: 'Wordt na het opslaan nooit meer getoond. Vul het opnieuw in als je de broker opslaat.',
    clientId: 'Client-id (optioneel)',
    clientIdHint: (fallback: string) => `Leeg: ${fallback}`,
    baseTopic: 'Basistopic van zigbee2mqtt',
    ca: 'TLS-certificaatautoriteit (optioneel, PEM)',
    caHint:
      'Voor een broker waarvan je eigen CA het certificaat ondertekende. Laat leeg om de CA’s van het systeem te vertrouwen.',
    caKept: 'Voor deze broker is een eigen CA ingesteld; plak hem opnieuw als je opslaat.',
    caInvalid: 'Plak een certificaat in PEM-vorm (-----BEGIN CERTIFICATE----- …).',
    save: 'Opslaan en verbinden',
    saved: 'Broker opgeslagen; de brug maakt verbinding.',
    forget: 'Deze broker vergeten',
    forgotten: 'De opgeslagen broker is vergeten.',
    zigbee2mqtt: 'zigbee2mqtt',
    noZigbee2mqtt: 'zigbee2mqtt heeft nog niets gezegd op deze broker.',
    online: (online: boolean | null) =>
      online === null
        ? 'zigbee2mqtt heeft niet gezegd of hij draait.'
        : online
          ? 'zigbee2mqtt draait.'
          : 'zigbee2mqtt is offline.',
    facts: (version: string | null, coordinator: string | null, channel: number | null) =>
      [
        version ? `versie ${version}` : null,
        coordinator ? `coördinator ${coordinator}` : null,
        channel ? `kanaal ${channel}` : null,
      ]
        .filter(Boolean)
        .join(', '),
    joinOpen: (left: string) => `Nieuwe apparaten kunnen nog ${left} aansluiten.`,
    joinClosed: 'Het Zigbee-netwerk is gesloten voor nieuwe apparaten.',
    permitJoin: 'Apparaten laten aansluiten (4 min)',
    closeJoin: 'Het netwerk sluiten',
    recent: 'Recente gebeurtenissen',
    events: {
      device_joined: 'aangesloten',
      device_announce: 'heeft zich aangemeld',
      device_interview: 'interview',
      device_leave: 'heeft het netwerk verlaten',
    },
  },
  matterPairing: {
    intro:
      'Zet het Matter-apparaat in koppelmodus op hetzelfde netwerk als de hub en voer dan de koppelcode in: de 11 of 21 cijfers op het apparaat of de doos.',
    code: 'Koppelcode',
    codeHint: 'Cijfers met of zonder streepjes (1234-567-8901), of de tekst van de QR-code, die met MT: begint',
    commission: 'Apparaat toevoegen',
    commissioning: 'Het apparaat wordt op het netwerk gezocht en aan de hub toegevoegd… dit kan een minuut duren.',
  },
  zigbeePairing: {
    opening: 'Het Zigbee-netwerk wordt geopend…',
    open: (until: string) =>
      `Het Zigbee-netwerk is open (tot ${until}, en langer zolang deze pagina open blijft). Zet het apparaat nu in koppelmodus, zoals de handleiding zegt.`,
    waiting: 'Er is nog geen apparaat aangesloten.',
    joined: 'Aangesloten apparaten',
    status: {
      joined: 'aangesloten, wacht op interview',
      interviewing: 'wordt geïnterviewd',
      interviewed: 'geïnterviewd, wordt toegevoegd',
      failed: 'interview mislukt: zet het apparaat terug en probeer het opnieuw',
      added: 'toegevoegd',
    },
    done: 'Klaar',
  },
};
