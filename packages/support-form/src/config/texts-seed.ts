/** Every text the seed fixes, word for word (seed sections 2, 5 and 8): the English catalogue keeps them exactly. */
export const seedTexts = {
  loading: 'Help is on the way...',
  loginTitle: 'How can we help?',
  loginText: 'Please sign in so we can help you best.',
  signIn: 'Sign in',
  cantSignIn: "Can't sign in?",
  greeting: (name: string) => `Hi ${name}, how can we help?`,
  noFetch: 'Your browser is not supported. Please contact support by e-mail at support@hearth.app.',

  placeholderStep: 'Select one of the above options.',
  hubNotListed: "My hub isn't listed",
  order: (id: string) => `Order #${id}`,
  orderNotListed: "My order isn't listed",
  since: (date: string) => `Since ${date}`,
  subscriptionNotListed: "My subscription isn't listed",

  hubOutOfDate: 'Hub software is out of date.',
  noDevices: 'No devices installed on selected hub.',
  hubOffline: "Couldn't establish a connection to your hub. Please make sure it's connected and online.",
  stillNotFound: 'Still not found what you were looking for?',
  contactSupport: 'Contact Support',
  contactDeveloper: 'Contact the developer',
  appOutOfDate: 'The selected app is out of date.',

  ticketSentTitle: 'Thanks for your message!',
  ticketSentText: 'Your e-mail confirmation is on its way. Our support team is working to get back to you as soon as possible.',
  ticketNumber: 'Your ticket number',
  disclaimer:
    'By sending this form you agree that Hearth stores your message and its attachments to answer your question. We delete them when your request is closed.',
  disclaimerWithHub:
    'By sending this form you agree that Hearth stores your message, its attachments and the details of your hub shown above, including a diagnostic report, to answer your question. We delete them when your request is closed.',
  close: 'Close',
  developerSentText: 'Your e-mail has been sent to the developer.',
  returnToKnowledgeBase: 'Return to Knowledge Base',

  messageError: 'A minimum of 20 characters is required to describe your issue.',
  messagePlaceholder: 'Please include as much details as you can.',
  subjectError: 'Please add a subject.',
  subjectPlaceholder: "What's your question about?",
  attachmentsHelp:
    'An image can be worth a thousand words. Providing screenshots or screencasts will help a lot. Max file size 50MB.',
  tooManyAttachments: 'Maximum number of attachments reached. Cannot add more than 12 files.',
  attachmentTooLarge: 'File exceeds the maximum file size of 50MB and could not be added.',

  uploadFailed: (file: string) => `We've encountered a problem uploading ${file}. Please try again!`,
  sendFailed: "We've encountered a problem sending your message. Please try again.",
  developerHubOffline:
    'Unfortunately, we were unable to generate a diagnostic report of the app to send with the email because your hub appears to be offline.',
  developerSendFailed: (message: string) => `We've encountered a problem sending the email. ${message}.`,
  developerSendFailedHint: 'Please try again or feel free to send an email to the developer here.',
  reportFailed: "Couldn't generate report",
  underVoltageFailed: "Couldn't get under voltage ratio",
} as const;
