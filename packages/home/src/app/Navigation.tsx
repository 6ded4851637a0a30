import { HOME_PAGES } from '@hearth/contract/provider';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { strings } from './strings';
import './navigation.css';

const t = strings.nav;

/** Always in the bar, on a phone too. */
const MAIN = [
  { href: HOME_PAGES.home, label: t.home },
  { href: HOME_PAGES.flows, label: t.flows },
  { href: HOME_PAGES.apps, label: t.apps },
] as const;

/** Behind "More" on a phone; in the bar beside the others on a wider screen. */
const MORE = [
  { href: HOME_PAGES.insights, label: t.insights },
  { href: HOME_PAGES.energy, label: t.energy },
  { href: HOME_PAGES.variables, label: t.variables },
  { href: HOME_PAGES.people, label: t.people },
  { href: HOME_PAGES.alarms, label: t.alarms },
  { href: HOME_PAGES.moods, label: t.moods },
  { href: HOME_PAGES.notifications, label: t.notifications },
  { href: HOME_PAGES.system, label: t.system },
] as const;

function NavLink({ href, label, current }: { href: string; label: string; current: boolean }) {
  return (
    <li>
      <Link href={href} aria-current={current ? 'page' : undefined}>
        {label}
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
