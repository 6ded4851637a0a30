import { texts } from '../config/texts';
/** Hearth's mark (the same drawing as the favicon): a roof over a flame. Decorative: the text beside it names it. */
export function BrandMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="8" fill="#9a3412" />
      <path d="M7 15.5 16 8l9 7.5" fill="none" stroke="#fff" strokeWidth="2.4" strokeLinecap="round" strokeLinejoin="round" />
      <path
        d="M16 13.5c2.6 2.2 4 4.3 4 6.4a4 4 0 0 1-8 0c0-1.3.6-2.4 1.6-3.3.2 1.1.8 1.8 1.6 2 0-1.9.2-3.4.8-5.1Z"
        fill="#fdba74"
      />
    </svg>
  );
}

/**
 * The banner every screen shows: the brand, and on the signed-in form its actions. Before it, the keyboard's way
 * past it to the screen's `main#content`.
 */
export function TopBar({ children }: { children?: React.ReactNode }) {
  return (
    <>
      <a className="skip" href="#content">
        {texts.form.skip}
      </a>
      <header className="topbar">
        <span className="topbar__brand">
          <BrandMark />
          Hearth Support
        </span>
        {children ? <div className="topbar__actions">{children}</div> : null}
      </header>
    </>
  );
}
