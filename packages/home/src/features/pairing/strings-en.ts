/** The texts of the Matter pairing view (kept beside it: the app's strings file is at its size limit). */
export const matterPairingStrings = {
  intro:
    'Put the Matter device in pairing mode on the same network as the hub, then enter its setup code: the 11 or 21 digits printed on it or in its box.',
  code: 'Setup code',
  codeHint: 'Digits with or without dashes (1234-567-8901), or the text of its QR code, which starts with MT:',
  commission: 'Add the device',
  commissioning: 'Finding the device on the network and adding it to the hub… this can take a minute.',
};
