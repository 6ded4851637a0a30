import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { chartColours } from '../../lib/theme';
import type { Entries, Log } from './model';

/**
 * A log's down-sampled entries drawn with uPlot (small, fast, made for time series): hover shows the value at a
 * time, dragging across a stretch zooms into it, a double click zooms out. Loaded only when a chart is opened.
 */
export default function Chart({ log, entries, label }: { log: Log; entries: Entries; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const times = entries.values.map((entry) => Date.parse(entry.t) / 1000);
    const values = entries.values.map((entry) => (typeof entry.v === 'boolean' ? Number(entry.v) : entry.v));
    const { stroke: accent, fill, text } = chartColours(element);
    const plot = new uPlot(
      {
        width: element.clientWidth,
        height: 260,
        cursor: { drag: { x: true, y: false } },
        scales: { x: { time: true } },
        axes: [
          { stroke: text, grid: { stroke: 'rgba(128,128,128,0.2)' } },
          { stroke: text, grid: { stroke: 'rgba(128,128,128,0.2)' }, size: 60 },
        ],
        series: [
          {},
          {
            label: `${log.title}${log.units ? ` (${log.units})` : ''}`,
            stroke: accent,
            width: 2,
            fill,
            paths: log.type === 'boolean' ? uPlot.paths.stepped?.({ align: 1 }) : undefined,
            value: (_plot, value) =>
              value === null ? '—' : `${value.toFixed(log.decimals ?? 1)}${log.units ? ` ${log.units}` : ''}`,
          },
        ],
      },
      [times, values],
      element,
    );
    // The chart follows the width of its column (a phone turned, a window resized).
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: 260 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [log, entries]);
  return <div ref={box} className="chart" role="img" aria-label={label} />;
}
