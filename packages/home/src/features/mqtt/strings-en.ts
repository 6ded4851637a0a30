/** The texts of the MQTT bridge's page (kept beside it: the app's strings file is at its size limit). */
export const mqttStrings = {
  title: 'MQTT bridge',
  link: 'MQTT bridge (zigbee2mqtt, Tasmota, Shelly, ESPHome)',
  back: 'Back to System',
  intro:
    'The hub bridges the devices an MQTT broker carries: zigbee2mqtt’s Zigbee devices, and the devices that announce themselves with Home Assistant’s discovery (Tasmota, Shelly, ESPHome).',
  status: 'Connection',
  states: {
    disabled: 'No broker is set.',
    connecting: 'Connecting…',
    connected: 'Connected',
    disconnected: 'Not connected',
  } as Record<string, string>,
  connectedSince: (url: string, at: string) => `Connected to ${url} since ${at}`,
  why: (reason: string) => `Why: ${reason}`,
  nextAttempt: (at: string) => `Next attempt at ${at}.`,
  fromEnvironment: 'This broker comes from the hub’s environment (HUB_MQTT_URL). A broker saved here takes its place.',
  fromSetting: 'This broker was saved here.',
  devices: (count: number) => (count === 1 ? 'The bridge made 1 device.' : `The bridge made ${count} devices.`),
  broker: 'Broker',
  url: 'Broker URL',
  urlHint: 'mqtt://, mqtts:// (TLS), ws:// or wss://, e.g. mqtt://192.168.1.20:1883',
  urlInvalid: 'Enter a URL that starts with mqtt://, mqtts://, ws:// or wss://.',
  username: 'Username (optional)',
  password: 'Password (optional)',
  passwordHint: 'Never shown again once saved. Enter it again whenever you save the broker.',
  clientId: 'Client id (optional)',
  clientIdHint: (fallback: string) => `Empty: ${fallback}`,
  baseTopic: 'zigbee2mqtt base topic',
  ca: 'TLS certificate authority (optional, PEM)',
  caHint: 'For a broker whose certificate your own CA signed. Leave empty to trust the system’s CAs.',
  caKept: 'A CA of its own is set for this broker; paste it again when you save.',
  caInvalid: 'Paste a certificate in PEM form (-----BEGIN CERTIFICATE----- …).',
  save: 'Save and connect',
  saved: 'Broker saved; the bridge connects to it.',
  forget: 'Forget this broker',
  forgotten: 'The saved broker is forgotten.',
  zigbee2mqtt: 'zigbee2mqtt',
  noZigbee2mqtt: 'zigbee2mqtt has not spoken on this broker yet.',
  online: (online: boolean | null) =>
    online === null
      ? 'zigbee2mqtt has not said whether it runs.'
      : online
        ? 'zigbee2mqtt is running.'
        : 'zigbee2mqtt is offline.',
  facts: (version: string | null, coordinator: string | null, channel: number | null) =>
    [
      version ? `version ${version}` : null,
      coordinator ? `coordinator ${coordinator}` : null,
      channel ? `channel ${channel}` : null,
    ]
      .filter(Boolean)
      .join(', '),
  joinOpen: (left: string) => `New devices may join for ${left} more.`,
  joinClosed: 'The Zigbee network is closed to new devices.',
  permitJoin: 'Let devices join (4 min)',
  closeJoin: 'Close the network',
  recent: 'Recent events',
  events: {
    device_joined: 'joined',
    device_announce: 'announced itself',
    device_interview: 'interview',
    device_leave: 'left the network',
  } as Record<string, string>,
};

/** The pairing view of zigbee2mqtt's devices (`permit_join`). */
export const zigbeePairingStrings = {
  opening: 'Opening the Zigbee network…',
  open: (until: string) =>
    `The Zigbee network is open (until ${until}, and longer while this page stays open). Put the device in pairing mode now, as its manual says.`,
  waiting: 'No device has joined yet.',
  joined: 'Devices that joined',
  status: {
    joined: 'joined, waiting for its interview',
    interviewing: 'being interviewed',
    interviewed: 'interviewed, being added',
    failed: 'interview failed: reset the device and try again',
    added: 'added',
  } as Record<string, string>,
  done: 'Done',
};
