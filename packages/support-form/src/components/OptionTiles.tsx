import useEmblaCarousel from 'embla-carousel-react';
import type { ReactNode } from 'react';
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
      className={`tile${checked ? ' tile--selected' : ''}`}
      disabled={tile.disabled}
      onClick={() => onSelect(tile.value)}
    >
      {tile.icon ? <span className="tile__icon">{tile.icon}</span> : null}
      <span className="tile__label">{tile.label}</span>
      {tile.detail ? <span className="tile__detail">{tile.detail}</span> : null}
    </button>
  );
}

function Carousel({ children }: { children: ReactNode[] }) {
  const [viewportRef, embla] = useEmblaCarousel({ align: 'start', dragFree: true, containScroll: 'trimSnaps' });
  return (
    <div className="carousel">
      <div className="carousel__viewport" ref={viewportRef}>
        <div className="carousel__container">{children}</div>
      </div>
      <div className="carousel__controls">
        <button type="button" className="carousel__prev" aria-label="Previous options" onClick={() => embla?.scrollPrev()}>
          ‹
        </button>
        <button type="button" className="carousel__next" aria-label="Next options" onClick={() => embla?.scrollNext()}>
          ›
        </button>
      </div>
    </div>
  );
}

/**
 * A group of options shown as tiles: a grid on wide screens with a pointer, a swipeable carousel on
 * hover-none devices and widths up to 991 px. Each tile is a toggle button: Tab reaches it, Enter or Space chooses it.
 */
export function OptionTiles({ title, tiles, selected, onSelect }: OptionTilesProps) {
  const mobile = useMobileLayout();
  const buttons = tiles.map((tile) => (
    <div className={mobile ? 'carousel__slide' : 'tiles__cell'} key={tile.value}>
      <TileButton tile={tile} checked={selected === tile.value} onSelect={onSelect} />
    </div>
  ));
  const list = (
    <div className={mobile ? 'tiles tiles--carousel' : 'tiles'}>{mobile ? <Carousel>{buttons}</Carousel> : buttons}</div>
  );
  if (!title) return <div className="tiles-group">{list}</div>;
  return (
    <fieldset className="tiles-group">
      <legend className="tiles-group__title">{title}</legend>
      {list}
    </fieldset>
  );
}
