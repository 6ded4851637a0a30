/**
 * The icon of an app (or driver) whose package brings none: its initials in white on a rounded square of its
 * brand colour, so apps stay told apart at a glance. The hub serves it for installed apps and the cloud's demo
 * catalogue ships it in its demo packages.
 */
export function drawnAppIcon(name: string, brandColor: string): string {
  const color = /^#[0-9a-f]{3,8}$/i.test(brandColor) ? brandColor : '#888888';
  const initials =
    name
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean)
      .slice(0, 2)
      .map((word) => [...word][0]?.toUpperCase() ?? '')
      .join('') || '?';
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">' +
    `<rect width="64" height="64" rx="14" fill="${color}"/>` +
    '<text x="32" y="33" fill="#fff" font-family="system-ui,-apple-system,Segoe UI,Roboto,sans-serif" font-size="26" ' +
    `font-weight="700" text-anchor="middle" dominant-baseline="central">${initials.replace(/[<>&"]/g, '')}</text></svg>`
  );
}
