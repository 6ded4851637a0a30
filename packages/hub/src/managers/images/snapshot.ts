/** XML-escapes text for an SVG. */
const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The still of a simulated camera (the built-in virtual IP camera): there is no camera to read, so the hub draws
 * what a still would show — the camera's name, the time it was taken and whether it sees motion — as SVG.
 */
export function simulatedSnapshot(camera: { name: string; motion: boolean }, at: Date): string {
  const time = at.toISOString().replace('T', ' ').slice(0, 19);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 360"><title>${escapeXml(camera.name)}</title>` +
    '<rect width="640" height="360" fill="#1f2a33"/>' +
    '<rect x="0" y="250" width="640" height="110" fill="#3b4a3f"/>' +
    (camera.motion
      ? '<circle cx="320" cy="220" r="40" fill="#d9a441"/><rect x="295" y="255" width="50" height="80" fill="#d9a441"/>'
      : '') +
    `<text x="20" y="36" fill="#fff" font-family="monospace" font-size="22">${escapeXml(camera.name)}</text>` +
    `<text x="20" y="340" fill="#fff" font-family="monospace" font-size="18">${time} UTC${camera.motion ? ' · motion' : ''}</text></svg>`
  );
}
