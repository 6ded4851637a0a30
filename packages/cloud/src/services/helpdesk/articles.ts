/**
 * The knowledge base: short articles the support form suggests for each option of its decision tree. Each
 * body is trusted HTML written here (never user input).
 */
export interface KnowledgeArticle {
  id: string;
  name: string;
  body: string;
}

const steps = (...items: string[]) => `<ol>${items.map((i) => `<li>${i}</li>`).join('')}</ol>`;
const list = (...items: string[]) => `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;
const p = (text: string) => `<p>${text}</p>`;

export const articles: readonly KnowledgeArticle[] = [
  // Account
  {
    id: 'change-name-or-email',
    name: 'Changing the name or e-mail address of your account',
    body:
      p('Your name and e-mail address are part of your Hearth account and can be changed at any time.') +
      steps(
        'Sign in to your account on the Hearth website.',
        'Open <strong>Account</strong> and choose <strong>Edit profile</strong>.',
        'Change your first name, last name or e-mail address and save.',
        'When you change your e-mail address, confirm it with the link we send to the new address.',
      ) +
      p('Your hubs, apps and subscriptions stay linked to your account; only how you sign in changes.'),
  },
  {
    id: 'change-profile-picture',
    name: 'Changing your profile picture',
    body:
      p('Your profile picture is shown in the Hearth apps and to the members of your family.') +
      steps(
        'Open <strong>Account</strong> on the Hearth website or in the mobile app.',
        'Tap your current picture and choose a new photo (JPEG or PNG, at most 5 MB).',
        'Crop it and save. Other devices show the new picture after they refresh.',
      ),
  },
  {
    id: 'delete-account',
    name: 'Deleting your Hearth account',
    body:
      p('Deleting your account removes your profile, your backups and your access to every hub you own or share.') +
      list(
        'Remove or transfer your hubs first: a hub that is still linked cannot be used by anyone else.',
        'Cancel running subscriptions; they are not refunded for the remaining period.',
        'Open <strong>Account → Privacy</strong> and choose <strong>Delete account</strong>. The deletion is final after 30 days.',
      ),
  },
  {
    id: 'reset-password',
    name: 'Resetting your password',
    body:
      p('Forgot your password? You can set a new one without contacting support.') +
      steps(
        'Open the sign-in page and choose <strong>Forgot your password?</strong>',
        'Enter the e-mail address of your account. We send you a link that works once, within an hour.',
        'Open the link and choose a new password of at least 8 characters.',
      ) +
      p('No e-mail? Check your spam folder and make sure you use the address your account was created with.'),
  },
  {
    id: 'cant-sign-in',
    name: "Can't sign in?",
    body:
      p(
        'You sign in to Hearth with your e-mail address and password, or with a passkey. Most problems have one of these causes:',
      ) +
      list(
        'A typo in the e-mail address, or another address than the one your account was created with.',
        'A forgotten password: choose <strong>Forgot your password?</strong> on the sign-in page for a link that sets a new one.',
        'Your passkey is on another device: sign in with your password, or choose <strong>Use a passkey</strong> on the device that holds it.',
        'Two-factor sign-in is on and your phone is not at hand: enter one of the recovery codes you saved instead of the code from the app.',
        'Too many failed attempts: the sign-in page says how long to wait before you try again.',
        'Cookies blocked by the browser: allow cookies for this website and try again.',
      ) +
      p('Still stuck? Ask us through the <a href="/support/">support form</a>.'),
  },
  {
    id: 'two-factor-authentication',
    name: 'Two-factor sign-in (2FA)',
    body:
      p('Two-factor sign-in asks, after your password, for a six-digit code from an authenticator app on your phone.') +
      steps(
        'Open the <strong>Security</strong> page of your account and choose <strong>Turn on two-factor sign-in</strong>.',
        'Scan the QR code with an authenticator app (or type the key shown below it) and enter the code the app shows.',
        'Save the recovery codes (copy or download them) in a safe place: each one signs you in once without your phone.',
      ),
  },
  // Hubs, orders, subscriptions
  {
    id: 'hub-not-listed',
    name: "My hub isn't listed",
    body:
      p('The form lists the hubs that are linked to the account you signed in with.') +
      list(
        'A hub someone shared with you belongs to its owner; ask the owner to contact support.',
        'A hub that was never set up with this account is not linked yet: finish the set-up in the mobile app.',
        'You may have more than one account: sign out and sign in with the other e-mail address.',
      ),
  },
  {
    id: 'order-status',
    name: 'Where is my order?',
    body:
      p(
        'Orders ship within two working days. You receive an e-mail with a tracking link as soon as the parcel leaves our warehouse.',
      ) +
      list(
        'Find your orders and their tracking links under <strong>Account → Orders</strong>.',
        'Delivery usually takes 2–5 working days, depending on the destination.',
        'Changing the delivery address is possible until the order ships.',
      ),
  },
  {
    id: 'returns-and-refunds',
    name: 'Returns and refunds',
    body:
      p('You can return a product within 30 days of delivery, in its original packaging.') +
      steps(
        'Open the order under <strong>Account → Orders</strong> and choose <strong>Return</strong>.',
        'Print the return label and ship the parcel.',
        'We refund the purchase price within 14 days after we receive the return.',
      ),
  },
  {
    id: 'order-not-listed',
    name: "My order isn't listed",
    body:
      p('Orders appear under the account that placed them.') +
      list(
        'Orders from resellers are not listed: contact the shop you bought from for delivery and returns.',
        'An order placed as a guest is linked to the e-mail address used at checkout.',
        'Orders show up a few minutes after payment is confirmed.',
      ),
  },
  {
    id: 'backups',
    name: 'Hearth Backups',
    body:
      p('Hearth Backups keeps a daily encrypted copy of your Pro hub: devices, Flows, apps and settings.') +
      list(
        'Backups run every night while the hub is online; the last 30 are kept.',
        'Restore a backup when you set up a new or reset hub, from the mobile app.',
        'Manage or cancel the subscription under <strong>Account → Subscriptions</strong>.',
      ),
  },
  {
    id: 'premium',
    name: 'Hearth Premium',
    body:
      p('Hearth Premium unlocks remote access without limits, longer Insights history and priority support.') +
      list(
        'The subscription renews every month or year; cancel at any time before the renewal date.',
        'Benefits apply to every hub you own.',
        'Invoices are under <strong>Account → Subscriptions</strong>.',
      ),
  },
  {
    id: 'subscription-not-listed',
    name: "My subscription isn't listed",
    body:
      p('Subscriptions appear under the account that bought them.') +
      list(
        'A subscription bought in the App Store or Google Play is managed there; restore it in the mobile app.',
        'A subscription bought with another account stays with that account.',
        'Expired subscriptions are no longer listed.',
      ),
  },
  // Hub topics
  {
    id: 'bridge',
    name: 'Setting up a Bridge',
    body:
      p(
        'A Bridge adds 433 MHz, Infrared, Bluetooth, Zigbee and Z-Wave radios to a cloud hub, or extends the range of a Pro hub.',
      ) +
      steps(
        'Plug the Bridge in near the middle of your home, away from metal and other radios.',
        'In the mobile app open <strong>Settings → Bridges</strong> and add it.',
        'Wait for the light ring to turn white: the Bridge is connected.',
      ),
  },
  {
    id: 'energy-dongle',
    name: 'Energy Dongle',
    body:
      p('The Energy Dongle reads your smart meter through its P1 port and shows usage in Energy and Insights.') +
      list(
        'Activate the P1 port of your meter with your energy supplier if it is switched off.',
        'Add the dongle in the mobile app under <strong>Devices → Add device</strong>.',
        'Readings appear within a minute; gas readings update every 5 minutes.',
      ),
  },
  {
    id: 'ethernet-adapter',
    name: 'Ethernet Adapter',
    body:
      p('The Ethernet Adapter gives a Pro hub a wired network connection, more stable than Wi-Fi.') +
      list(
        'Connect the adapter to the hub and to your router, then restart the hub.',
        'The hub prefers the wired connection automatically when both are available.',
        'Use a cable of at most 100 metres; check the link light if the hub stays offline.',
      ),
  },
  {
    id: 'flow',
    name: 'Getting started with Flow',
    body:
      p(
        'A Flow has a <strong>When</strong> card (trigger), optional <strong>And</strong> cards (conditions) and <strong>Then</strong> cards (actions).',
      ) +
      list(
        'Use the Test button to run the Then cards right away.',
        'A Flow that does not run: check that it is enabled and that every device in it is available.',
        'Use tags from the When card to pass values, like a temperature, to the actions.',
      ),
  },
  {
    id: 'advanced-flow',
    name: 'Advanced Flow',
    body:
      p('Advanced Flow places cards freely on a canvas, so one Flow can branch, join and run actions in order or in parallel.') +
      list(
        'Connect the output of a card to the input of the next; a red output runs when the card fails.',
        'Use the Start card to test an Advanced Flow.',
        'Convert a standard Flow with <strong>Duplicate as Advanced Flow</strong>.',
      ),
  },
  {
    id: 'logic',
    name: 'Logic: variables and calculations',
    body:
      p('Logic variables store a number, text or yes/no value that Flows can read and change.') +
      list(
        'Create variables under <strong>Settings → Logic</strong>.',
        'Use the "Variable changed" card to start a Flow when a value changes.',
        'Calculations such as <code>{{temperature + 1}}</code> work in number fields.',
      ),
  },
  {
    id: 'insights',
    name: 'Insights: history of your devices',
    body:
      p('Insights records the values of your devices and variables over time and draws them as charts.') +
      list(
        'History is kept for a year at decreasing resolution.',
        'Compare several sensors by adding them to one chart.',
        'Export the data as CSV from the chart menu.',
      ),
  },
  {
    id: 'energy',
    name: 'Energy: monitoring usage',
    body:
      p('Energy shows what your home and each device uses and produces.') +
      list(
        'Devices that do not measure power can be given a fixed usage in their settings.',
        'Add your smart meter or Energy Dongle to see the whole home.',
        'Set your energy prices to see costs.',
      ),
  },
  {
    id: 'mobile-app',
    name: 'Troubleshooting the mobile app',
    body:
      p('Most problems with the mobile app are solved by these steps:') +
      steps(
        'Update the app to the latest version from the App Store or Google Play.',
        'Sign out and sign in again.',
        'Check that your phone has internet and that the hub is online.',
        'Reinstall the app; your hub and its data are not affected.',
      ),
  },
  {
    id: 'amazon-alexa',
    name: 'Amazon Alexa',
    body:
      p('Control your Hearth devices by voice with the Hearth skill for Alexa.') +
      steps(
        'Enable the Hearth skill in the Alexa app and sign in with your Hearth account.',
        'Say "Alexa, discover devices".',
        'Rename a device in Hearth and discover again if Alexa does not recognise it.',
      ),
  },
  {
    id: 'google-assistant',
    name: 'Google Assistant',
    body:
      p('Link Hearth in the Google Home app to control devices with Google Assistant.') +
      steps(
        'In Google Home choose <strong>+ → Set up device → Works with Google</strong> and pick Hearth.',
        'Sign in with your Hearth account and assign rooms.',
        'Say "Hey Google, sync my devices" after adding new devices.',
      ),
  },
  {
    id: 'siri',
    name: 'Siri and Shortcuts',
    body:
      p('Siri can start Hearth Flows through Shortcuts.') +
      list(
        'Open a Flow in the mobile app and choose <strong>Add to Siri</strong>.',
        'Record or type the phrase that starts it.',
        'Shortcuts run on your phone; it needs internet to reach the hub.',
      ),
  },
  {
    id: 'family',
    name: 'Family: sharing your hub',
    body:
      p('Invite the people you live with so they can use the hub with their own account.') +
      list(
        'Invite members under <strong>Settings → Family</strong>; each gets an e-mail with a link.',
        'Roles decide what members may change: owner, manager, user or guest.',
        'Presence (home or away) works per member from their phone.',
      ),
  },
  {
    id: 'hub-other',
    name: 'Troubleshooting your hub',
    body:
      p('When the hub behaves unexpectedly, these checks solve most issues:') +
      steps(
        'Make sure the hub runs the latest software under <strong>Settings → Updates</strong>.',
        'Restart the hub from <strong>Settings → General</strong>, or by unplugging it for ten seconds.',
        'Check that the hub is online: its light ring is white, not red.',
      ),
  },
  // Wireless technologies
  ...(
    [
      [
        '433-mhz',
        '433 MHz devices',
        'Many remotes, sockets and sensors use 433 MHz. They have no confirmation, so keep the hub within 20 metres and re-pair a device that stops responding.',
      ],
      [
        '868-mhz',
        '868 MHz devices',
        '868 MHz is used by some blinds and alarm sensors. Pair them close to the hub and check that the brand is supported by an installed app.',
      ],
      [
        'bluetooth',
        'Bluetooth devices',
        'Bluetooth Low Energy devices must be within about 10 metres of the hub. A device connected to a phone may not be visible to the hub at the same time.',
      ],
      [
        'infrared',
        'Infrared devices',
        'Infrared needs a line of sight between the hub (or Bridge) and the TV or air conditioner. Use the database of remotes when adding the device.',
      ],
      [
        'wi-fi',
        'Wi-Fi devices',
        'Wi-Fi devices must be on the same network as the hub. Give them a fixed address in your router and avoid guest networks.',
      ],
      [
        'zigbee',
        'Zigbee devices',
        'Zigbee devices form a mesh through mains-powered devices. Add mains-powered devices first, and reset a device before pairing it again.',
      ],
      [
        'z-wave',
        'Z-Wave devices',
        'Z-Wave devices must be excluded before they can be added to a new hub. Mains-powered devices repeat the signal for battery devices.',
      ],
      [
        'matter',
        'Matter devices',
        'Add Matter devices with the QR code on the device or its packaging. A device can be used by several ecosystems at once.',
      ],
      [
        'thread',
        'Thread devices',
        'Thread devices form a mesh like Zigbee. The hub is a Thread border router, so Thread devices need no other bridge.',
      ],
    ] as const
  ).map(([id, name, text]) => ({
    id,
    name,
    body:
      p(text) +
      list(
        'Move the device closer to the hub while pairing.',
        'Replace the batteries of battery-powered devices.',
        'Check the app of the brand for a software update.',
      ),
  })),
  // Apps and devices
  {
    id: 'apps-troubleshooting',
    name: 'Troubleshooting an app',
    body:
      p('Apps add support for brands and services. When an app does not work as expected:') +
      steps(
        'Update the app to its latest version.',
        'Restart the app from its page under <strong>Settings → Apps</strong>.',
        "Check the app settings, for example an expired sign-in to the brand's account.",
      ),
  },
  {
    id: 'contacting-app-developers',
    name: 'Who supports an app?',
    body:
      p('Apps by Hearth are supported by Hearth support. Apps by other developers are supported by their developer.') +
      list(
        'The app page shows its developer and how to contact them.',
        'Verified developers have been checked by Hearth; community developers build apps in their free time.',
        'Include what you did, what you expected and what happened instead.',
      ),
  },
  {
    id: 'updating-apps',
    name: 'Updating an app',
    body:
      p('Many problems are fixed in a newer version of the app.') +
      steps(
        'Open the app page in the app store and choose <strong>Update</strong>.',
        'Or turn on automatic updates under <strong>Settings → Apps</strong>.',
        'The app restarts after the update; your devices and settings are kept.',
      ),
  },
  {
    id: 'device-troubleshooting',
    name: 'A device does not respond',
    body:
      p('When a device stops responding:') +
      steps(
        'Check its power or batteries.',
        'Look at the device in the mobile app: an exclamation mark tells what is wrong.',
        'Restart the app the device belongs to.',
        'Remove and add the device again if nothing else helps.',
      ),
  },
];

export const articleById = new Map(articles.map((a) => [a.id, a]));
