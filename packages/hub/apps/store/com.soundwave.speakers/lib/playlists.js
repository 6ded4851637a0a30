/** The playlists a SoundWave speaker plays (a stand-in for the speaker's streaming service). */
const PLAYLISTS = {
  morning: [
    { title: 'Here Comes the Sun', artist: 'The Beatles', colour: '#F5B041' },
    { title: 'Good Day Sunshine', artist: 'The Beatles', colour: '#F4D03F' },
    { title: 'Lovely Day', artist: 'Bill Withers', colour: '#EB984E' },
  ],
  dinner: [
    { title: 'Blue in Green', artist: 'Miles Davis', colour: '#2E86C1' },
    { title: 'Take Five', artist: 'The Dave Brubeck Quartet', colour: '#1B4F72' },
    { title: 'In a Sentimental Mood', artist: 'Duke Ellington & John Coltrane', colour: '#5B2C6F' },
  ],
  party: [
    { title: 'September', artist: 'Earth, Wind & Fire', colour: '#C0392B' },
    { title: 'Le Freak', artist: 'Chic', colour: '#E74C3C' },
  ],
};

/** The cover of a track: a square in its colour with its title, as SVG. */
function cover(track) {
  const text = (value) => value.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 300"><title>${text(track.title)}</title>` +
      `<rect width="300" height="300" fill="${track.colour}"/>` +
      `<text x="20" y="250" fill="#fff" font-family="sans-serif" font-size="22">${text(track.title)}</text>` +
      `<text x="20" y="280" fill="#fff" font-family="sans-serif" font-size="16">${text(track.artist)}</text></svg>`,
  );
}

module.exports = { PLAYLISTS, cover };
