/**
 * Standard VAT rates, kept as data with where they come from. Rates are in basis points (2100 = 21 %) so that sums
 * stay in integers. Update the table and its date together when a country changes its rate.
 */
export interface VatTable {
  source: { name: string; url: string; date: string };
  rates: Record<string, number>;
}

/** The 27 member states' standard rates. */
export const EU_VAT_RATES: VatTable = {
  source: {
    name: 'European Commission, Taxation and Customs Union: VAT rates applied in the Member States of the European Union',
    url: 'https://taxation-customs.ec.europa.eu/taxation/vat/vat-directive/vat-rates_en',
    // Includes Estonia's 24 % (1 July 2025), Romania's 21 % (1 August 2025), Slovakia's 23 % and Finland's 25.5 %.
    date: '2025-08-01',
  },
  rates: {
    AT: 2000,
    BE: 2100,
    BG: 2000,
    HR: 2500,
    CY: 1900,
    CZ: 2100,
    DK: 2500,
    EE: 2400,
    FI: 2550,
    FR: 2000,
    DE: 1900,
    GR: 2400,
    HU: 2700,
    IE: 2300,
    IT: 2200,
    LV: 2100,
    LT: 2100,
    LU: 1700,
    MT: 1800,
    NL: 2100,
    PL: 2300,
    PT: 2300,
    RO: 2100,
    SK: 2300,
    SI: 2200,
    ES: 2100,
    SE: 2500,
  },
};

/** The other countries the store ships to, each from its own tax office. The US has no VAT (sales tax is not charged). */
export const OTHER_VAT_RATES: Record<string, VatTable> = {
  GB: {
    source: {
      name: 'HM Revenue & Customs: VAT rates',
      url: 'https://www.gov.uk/guidance/rates-of-vat-on-different-goods-and-services',
      date: '2025-08-01',
    },
    rates: { GB: 2000 },
  },
  NO: {
    source: {
      name: 'Skatteetaten: Merverdiavgift, satser',
      url: 'https://www.skatteetaten.no/en/rates/value-added-tax/',
      date: '2025-08-01',
    },
    rates: { NO: 2500 },
  },
  CH: {
    source: {
      name: 'Swiss Federal Tax Administration: VAT rates',
      url: 'https://www.estv.admin.ch/estv/en/home/value-added-tax.html',
      date: '2025-08-01',
    },
    rates: { CH: 810 },
  },
  US: {
    source: {
      name: 'No VAT in the United States; state sales tax is not charged by the store',
      url: 'https://www.irs.gov/',
      date: '2025-08-01',
    },
    rates: { US: 0 },
  },
};

/** The country the seller is established in: reverse charge applies to business buyers of the other member states. */
export const SELLER_COUNTRY = 'NL';
