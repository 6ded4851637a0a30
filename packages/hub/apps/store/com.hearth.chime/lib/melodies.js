/** The melodies a Hearth chime plays, with how long one play lasts (seconds). */
const MELODIES = [
  { id: 'westminster', name: 'Westminster', seconds: 6 },
  { id: 'ding-dong', name: 'Ding-dong', seconds: 2 },
  { id: 'big-ben', name: 'Big Ben', seconds: 8 },
  { id: 'fur-elise', name: 'Für Elise', seconds: 10 },
  { id: 'birdsong', name: 'Birdsong', seconds: 5 },
  { id: 'harbour-bell', name: 'Harbour bell', seconds: 4 },
];

const fold = (text) =>
  String(text)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** The melodies whose name contains `query` (ignoring case and accents), as autocomplete suggestions. */
function suggest(query) {
  const wanted = fold(query ?? '').trim();
  return MELODIES.filter((melody) => fold(melody.name).includes(wanted)).map((melody) => ({
    id: melody.id,
    name: melody.name,
    description: `${melody.seconds} s`,
  }));
}

/** The melody with this id, or the first one for an id the chime does not know. */
function melodyById(id) {
  return MELODIES.find((melody) => melody.id === id) ?? MELODIES[0];
}

/** Whether `hour` (0–23) falls in the quiet hours from `from` until `until`, which may run past midnight. */
function inQuietHours(hour, from, until) {
  if (from === until) return false;
  return from < until ? hour >= from && hour < until : hour >= from || hour < until;
}

module.exports = { MELODIES, suggest, melodyById, inQuietHours };
