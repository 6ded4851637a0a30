import { HOME_PAGES } from '@hearth/contract/provider';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { strings } from './strings';
import './navigation.css';

const t = strings.nav;

/** Always in the bar, on a phone too. */
const MAIN = [
  { href: HOME_PAGES.home, section: 'home' },
  { href: HOME_PAGES.flows, section: 'flows' },
  { href: HOME_PAGES.apps, section: 'apps' },
] as const;

/** Behind "More" on a phone; in the bar beside the others on a wider screen. */
const MORE = [
  { href: HOME_PAGES.insights, section: 'insights' },
  { href: HOME_PAGES.energy, section: 'energy' },
  { href: HOME_PAGES.variables, section: 'variables' },
  { href: HOME_PAGES.people, section: 'people' },
  { href: HOME_PAGES.alarms, section: 'alarms' },
  { href: HOME_PAGES.moods, section: 'moods' },
  { href: HOME_PAGES.notifications, section: 'notifications' },
  { href: HOME_PAGES.system, section: 'system' },
] as const;

/** A section's link, named when it renders (in the language of that moment). */
function NavLink({ href, section, current }: { href: string; section: keyof typeof t; current: boolean }) {
  return (
    <li>
      <Link href={href} aria-current={current ? 'page' : undefined}>
        {t[section]}
      </Link>
    </li>
  );
}

/**
 * The sections. Eleven links wrap to four rows on a 320 px phone, so there the bar keeps the three most used and a
 * "More" button discloses the rest (a disclosure, not an ARIA menu: they are plain links, Tab reaches them); from
 * 768 px every link is in the bar and the button is gone (navigation.css). The list closes when a page opens and
 * on Escape, which gives focus back to the button.
 */
export function Navigation() {
  const [location] = useLocation();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const current = (href: string) =>
    href === '/'
      ? location === '/' || location.startsWith('/devices') || location === HOME_PAGES.addDevice || location === HOME_PAGES.zones
      : location.startsWith(href);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new location (a page opened) closes the list
  useEffect(() => setOpen(false), [location]);
  function closeOnEscape(event: KeyboardEvent) {
    if (event.key !== 'Escape' || !open) return;
    setOpen(false);
    button.current?.focus();
  }
  const inMore = MORE.some((item) => current(item.href));
  return (
    <nav className="nav" aria-label={t.label} onKeyDown={closeOnEscape}>
      <ul className="nav__list">
        {MAIN.map((item) => (
          <NavLink key={item.href} {...item} current={current(item.href)} />
        ))}
        <li className="nav__more">
          <button
            ref={button}
            type="button"
            className={inMore ? 'nav__more-button nav__more-button--current' : 'nav__more-button'}
            aria-expanded={open}
            aria-controls="nav-more"
            onClick={() => setOpen((was) => !was)}
          >
            {t.more}
          </button>
        </li>
      </ul>
      <ul id="nav-more" className={open ? 'nav__list nav__list--more nav__list--open' : 'nav__list nav__list--more'}>
        {MORE.map((item) => (
          <NavLink key={item.href} {...item} current={current(item.href)} />
        ))}
      </ul>
    </nav>
  );
}
