/* The terms of service and the privacy policy in Dutch. */
import type { Catalogue } from '@hearth/i18n';
import type { legalEn } from '../strings-legal-en';

export const nlLegal: Catalogue<typeof legalEn> = {
  terms: {
    title: 'Gebruiksvoorwaarden',
    intro: 'Deze voorwaarden gelden voor je Hearth-account en voor de clouddiensten van Hearth die je ermee gebruikt.',
    account: 'Je account',
    accountName: 'Je geeft een naam en een e-mailadres op dat van jou is, en je houdt je wachtwoord voor jezelf.',
    accountResponsible: 'Je bent verantwoordelijk voor wat er gebeurt met je account en op de hubs die je bezit of deelt.',
    deleteBefore: 'Je kunt je account op elk moment verwijderen op de pagina ',
    deleteLink: 'account verwijderen',
    deleteAfter: '.',
    hubs: 'Je hubs en je huis',
    hubsOwn: 'Je hub regelt je huis zelfstandig. De cloud voegt toegang op afstand, back-ups, delen en de appwinkel toe.',
    hubsInvite: 'Alleen de mensen die je voor een hub uitnodigt kunnen hem gebruiken, met de rol die je ze geeft.',
    hubsApps: 'Apps die je installeert draaien op je hub met de rechten waar ze bij het installeren om vragen.',
    fair: 'Redelijk gebruik',
    fairReach: 'Probeer niet bij accounts, hubs of gegevens te komen die niet van jou zijn, en overbelast de diensten niet.',
    fairLimit: 'De diensten beperken hoe vaak ze worden aangeroepen, zodat ze voor iedereen beschikbaar blijven.',
    purchases: 'Aankopen',
    purchasesText:
      'Bestellingen en abonnementen in de Hearth-winkel tonen hun prijs, btw en verlenging voordat je betaalt. Een abonnement wordt verlengd tot je het opzegt op de pagina Apparaten en bestellingen.',
    changes: 'Wijzigingen',
    changesText:
      'Als deze voorwaarden veranderen op een manier die voor jou van belang is, laten we je dat per e-mail weten voordat de wijziging ingaat.',
    privacyBefore: 'Hoe we met je gegevens omgaan staat in het ',
    privacyLink: 'privacybeleid',
    privacyAfter: '.',
  },
  privacy: {
    title: 'Privacybeleid',
    intro: 'Hearth bewaart zo weinig over je als nodig is voor de diensten die je gebruikt, en niets om te verkopen.',
    kept: 'Wat de cloud bewaart',
    keptAccount:
      'Je account: naam, e-mailadres, taal, een hash van je wachtwoord (nooit het wachtwoord zelf), en de methoden voor inloggen in twee stappen en de passkeys die je toevoegt.',
    keptHubs: 'Welke hubs je bezit of deelt, met hun namen en adressen, zodat je ze overal kunt bereiken.',
    keptBackups: 'Back-ups van je hubs, als je abonnement die omvat.',
    keptOrders: 'Je bestellingen en abonnementen, met de factuur- en afleveradressen die je opgaf.',
    keptSupport: 'Vragen die je aan support stuurt, en de antwoorden.',
    keptRecords: 'Gegevens over inlogpogingen en verzoeken (adres, tijd, resultaat), om je account veilig te houden.',
    home: 'Wat thuis blijft',
    homeText:
      'Je apparaten, flows en hun geschiedenis staan op je hub. Als je je hub van buitenshuis gebruikt, geeft de cloud je verzoeken door en bewaart ze niet.',
    cookies: 'Cookies',
    cookiesText:
      'De inlogpagina’s zetten alleen cookies om je in te loggen: één die het inlogformulier beschermt, één die je ingelogd houdt. Er zijn geen advertentie- of trackingcookies.',
    mail: 'E-mail',
    mailText:
      'We mailen je over je account (verificatie, beveiligingswijzigingen, uitnodigingen, bestellingen). Nieuwsbrieven alleen als je erom vraagt.',
    choices: 'Je keuzes',
    seeBefore: 'Bekijk en wijzig je gegevens op je ',
    seeLink: 'profiel',
    seeAfter: '.',
    deleteBefore: 'Verwijder je account, met wat de cloud over je bewaart, op de pagina ',
    deleteLink: 'account verwijderen',
    deleteAfter: '.',
    termsBefore: 'De regels voor het gebruik van Hearth staan in de ',
    termsLink: 'gebruiksvoorwaarden',
    termsAfter: '.',
  },
};
