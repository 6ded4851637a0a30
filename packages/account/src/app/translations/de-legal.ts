/* The terms of service and the privacy policy in German. */
import type { Catalogue } from '@hearth/i18n';
import type { legalEn } from '../strings-legal-en';

export const deLegal: Catalogue<typeof legalEn> = {
  terms: {
    title: 'Nutzungsbedingungen',
    intro: 'Diese Bedingungen gelten für dein Hearth-Konto und für die Hearth-Clouddienste, die du damit nutzt.',
    account: 'Dein Konto',
    accountName: 'Du gibst einen Namen und eine E-Mail-Adresse an, die dir gehört, und behältst dein Passwort für dich.',
    accountResponsible:
      'Du bist verantwortlich für das, was mit deinem Konto und auf den Hubs geschieht, die dir gehören oder die du teilst.',
    deleteBefore: 'Du kannst dein Konto jederzeit auf der Seite ',
    deleteLink: 'Konto löschen',
    deleteAfter: ' löschen.',
    hubs: 'Deine Hubs und dein Zuhause',
    hubsOwn: 'Dein Hub steuert dein Zuhause selbstständig. Die Cloud ergänzt Fernzugriff, Sicherungen, Teilen und den App-Store.',
    hubsInvite: 'Nur die Personen, die du zu einem Hub einlädst, können ihn nutzen, mit der Rolle, die du ihnen gibst.',
    hubsApps: 'Apps, die du installierst, laufen auf deinem Hub mit den Berechtigungen, die sie bei der Installation erfragen.',
    fair: 'Faire Nutzung',
    fairReach: 'Versuche nicht, auf Konten, Hubs oder Daten zuzugreifen, die nicht dir gehören, oder die Dienste zu überlasten.',
    fairLimit: 'Die Dienste begrenzen, wie oft sie aufgerufen werden, damit sie für alle verfügbar bleiben.',
    purchases: 'Käufe',
    purchasesText:
      'Bestellungen und Abonnements im Hearth-Store zeigen Preis, Mehrwertsteuer und Verlängerung, bevor du bezahlst. Ein Abonnement verlängert sich, bis du es auf der Seite Geräte und Bestellungen kündigst.',
    changes: 'Änderungen',
    changesText:
      'Wenn sich diese Bedingungen auf eine für dich wichtige Weise ändern, teilen wir dir das per E-Mail mit, bevor die Änderung wirksam wird.',
    privacyBefore: 'Wie wir mit deinen Daten umgehen, steht in der ',
    privacyLink: 'Datenschutzerklärung',
    privacyAfter: '.',
  },
  privacy: {
    title: 'Datenschutzerklärung',
    intro: 'Hearth speichert so wenig über dich, wie es für die Dienste braucht, die du nutzt, und nichts zum Verkaufen.',
    kept: 'Was die Cloud speichert',
    keptAccount:
      'Dein Konto: Name, E-Mail-Adresse, Sprache, ein Hash deines Passworts (nie das Passwort selbst) sowie die Methoden der Anmeldung in zwei Schritten und die Passkeys, die du hinzufügst.',
    keptHubs: 'Welche Hubs dir gehören oder du teilst, mit ihren Namen und Adressen, damit du sie von überall erreichst.',
    keptBackups: 'Sicherungen deiner Hubs, wenn dein Abonnement sie umfasst.',
    keptOrders: 'Deine Bestellungen und Abonnements, mit den Rechnungs- und Lieferadressen, die du angegeben hast.',
    keptSupport: 'Supportanfragen, die du sendest, und die Antworten.',
    keptRecords: 'Aufzeichnungen über Anmeldungen und Anfragen (Adresse, Zeit, Ergebnis), um dein Konto zu schützen.',
    home: 'Was zu Hause bleibt',
    homeText:
      'Deine Geräte, Flows und ihr Verlauf liegen auf deinem Hub. Wenn du deinen Hub von unterwegs nutzt, reicht die Cloud deine Anfragen weiter und speichert sie nicht.',
    cookies: 'Cookies',
    cookiesText:
      'Die Anmeldeseiten setzen Cookies nur, um dich anzumelden: eines schützt das Anmeldeformular, eines hält dich angemeldet. Es gibt keine Werbe- oder Tracking-Cookies.',
    mail: 'E-Mail',
    mailText:
      'Wir schreiben dir zu deinem Konto (Bestätigung, Sicherheitsänderungen, Einladungen, Bestellungen). Newsletter nur, wenn du sie anforderst.',
    choices: 'Deine Wahl',
    seeBefore: 'Sieh dir deine Angaben in deinem ',
    seeLink: 'Profil',
    seeAfter: ' an und ändere sie.',
    deleteBefore: 'Lösche dein Konto, samt dem, was die Cloud über dich speichert, auf der Seite ',
    deleteLink: 'Konto löschen',
    deleteAfter: '.',
    termsBefore: 'Die Regeln für die Nutzung von Hearth stehen in den ',
    termsLink: 'Nutzungsbedingungen',
    termsAfter: '.',
  },
};
