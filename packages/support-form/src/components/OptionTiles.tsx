import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { texts } from '../config/texts';
import { useMobileLayout } from '../hooks/useMobileLayout';

export interface Tile {
  value: string;
  label: string;
  detail?: ReactNode;
  icon?: ReactNode;
  disabled?: boolean;
}

interface OptionTilesProps {
  title?: string;
  tiles: readonly Tile[];
  selected: string | null;
  onSelect: (value: string) => void;
}

function TileButton({ tile, checked, onSelect }: { tile: Tile; checked: boolean; onSelect: (value: string) => void }) {
  return (
    <button
      type="button"
      aria-pressed={checked}
      className={`tile${checked ? ' tile--selected' : ''}${tile.icon ? ' tile--with-icon' : ''}`}
      disabled={tile.disabled}
      onClick={() => onSelect(tile.value)}
    >
      {tile.icon ? <span className="tile__icon">{tile.icon}</span> : null}
      <span className="tile__text">
        <span className="tile__label">{tile.label}</span>
        {tile.detail ? <span className="tile__detail">{tile.detail}</span> : null}
      </span>
    </button>
  );
}

/**
 * A row of tiles that scrolls sideways with the browser's own scrolling and snaps to whole tiles: the track shows
 * as many whole tiles as fit (its CSS picks the count by the track's width), and the arrows, shown only when
 * there is more to see, move one view at a time. Native scrolling keeps swiping, momentum and keyboard scrolling
 * as the platform does them, with no script on the swipe itself.
 */
function Carousel({ label, children }: { label: string; children: ReactNode[] }) {
  const track = useRef<HTMLDivElement>(null);
  const [edges, setEdges] = useState({ atStart: true, atEnd: true });
  const measure = useCallback(() => {
    const element = track.current;
    if (!element) return;
    const atStart = element.scrollLeft <= 1;
    const atEnd = element.scrollLeft + element.clientWidth >= element.scrollWidth - 1;
    setEdges((current) => (current.atStart === atStart && current.atEnd === atEnd ? current : { atStart, atEnd }));
  }, []);
  useEffect(() => {
    measure();
    const element = track.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [measure]);
  const page = (direction: 1 | -1) => {
    const element = track.current;
    if (!element) return;
    const gap = Number.parseFloat(getComputedStyle(element).columnGap) || 0;
    element.scrollBy({ left: direction * (element.clientWidth + gap), behavior: 'smooth' });
  };
  const scrolls = !(edges.atStart && edges.atEnd);
  return (
    <div className="carousel">
      <div className="carousel__track" ref={track} onScroll={measure}>
        {children}
      </div>
      {scrolls ? (
        <div className="carousel__controls">
          <button
            type="button"
            className="carousel__arrow"
            aria-label={`Previous ${label}`}
            disabled={edges.atStart}
            onClick={() => page(-1)}
          >
            <span aria-hidden="true">‹</span>
          </button>
          <button
            type="button"
            className="carousel__arrow"
            aria-label={`More ${label}`}
            disabled={edges.atEnd}
            onClick={() => page(1)}
          >
            <span aria-hidden="true">›</span>
          </button>
        </div>
      ) : null}
    </div>
  );
}

/**
 * A group of options shown as tiles: a grid on wide screens with a pointer, a carousel of whole tiles on
 * hover-none devices and widths up to 991 px. Each tile is a toggle button: Tab reaches it, Enter or Space chooses it.
 */
export function OptionTiles({ title, tiles, selected, onSelect }: OptionTilesProps) {
  const mobile = useMobileLayout();
  const buttons = tiles.map((tile) => (
    <div className={mobile ? 'carousel__slide' : 'tiles__cell'} key={tile.value}>
      <TileButton tile={tile} checked={selected === tile.value} onSelect={onSelect} />
    </div>
  ));
  const list = mobile ? (
    <Carousel label={title ? texts.form.options(title) : texts.form.optionsNoTitle}>{buttons}</Carousel>
  ) : (
    <div className="tiles">{buttons}</div>
  );
  if (!title) return <div className="tiles-group">{list}</div>;
  return (
    <fieldset className={mobile ? 'tiles-group tiles-group--carousel' : 'tiles-group'}>
      <legend className="tiles-group__title">{title}</legend>
      {list}
    </fieldset>
  );
}
