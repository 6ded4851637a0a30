/**
 * The colour theme: the system's (prefers-color-scheme) unless the person chose light or dark in this browser,
 * which is kept in local storage. The stylesheet reads `data-theme` on the root element.
 */
export type Theme = 'system' | 'light' | 'dark';

const THEME_KEY = 'hearth-home:theme';

export function storedTheme(): Theme {
  const value = localStorage.getItem(THEME_KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

export function applyTheme(theme: Theme = storedTheme()): void {
  if (theme === 'system') {
    localStorage.removeItem(THEME_KEY);
    delete document.documentElement.dataset.theme;
  } else {
    localStorage.setItem(THEME_KEY, theme);
    document.documentElement.dataset.theme = theme;
  }
}

/** Colours a canvas can draw with: the theme's accent resolved to rgb, as a line and as a light fill. */
export function chartColours(element: HTMLElement): { stroke: string; fill: string; text: string } {
  const style = getComputedStyle(element);
  // `.chart` sets accent-color to the theme's accent, so the browser resolves the variable for us.
  const stroke = style.accentColor && style.accentColor !== 'auto' ? style.accentColor : 'rgb(194, 65, 12)';
  return { stroke, fill: stroke.replace(/^rgb\((.*)\)$/, 'rgba($1, 0.15)'), text: style.color };
}
