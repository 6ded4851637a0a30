import { localeOf } from '@hearth/i18n';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { i18n } from '../../app/strings';
import 'uplot/dist/uPlot.min.css';
import { chartColours } from '../../lib/theme';
import { type Period, partLabel } from './model';

/**
 * A period's energy per part (day or month) as bars, with uPlot; loaded only when the energy page shows one. The
 * legend names the series with its unit, and the parts are labelled as people name them (weekdays, days, months).
 */
export default function EnergyChart({
  parts,
  period,
  series,
  part,
  label,
}: {
  parts: { date: string; kWh: number }[];
  period: Period;
  /** The legend's names of the bars' values (with their unit) and of what a bar stands for. */
  series: string;
  part: string;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const { stroke, fill, text } = chartColours(element);
    const labels = parts.map((part) => partLabel(period, part.date, localeOf(i18n)));
    const grid = { stroke: 'rgba(128,128,128,0.2)' };
    const plot = new uPlot(
      {
        width: element.clientWidth,
        height: 220,
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: false, range: [-0.5, parts.length - 0.5] } },
        axes: [
          { stroke: text, grid, values: (_plot, splits) => splits.map((index) => labels[index] ?? '') },
          { stroke: text, grid, size: 60, label: 'kWh', labelSize: 20 },
        ],
        series: [
          { label: part, value: (_plot, index) => parts[index]?.date ?? '' },
          {
            label: series,
            stroke,
            fill,
            width: 1,
            paths: uPlot.paths.bars?.({ size: [0.7, 48] }),
            points: { show: false },
            value: (_plot, value) => (value === null ? '—' : `${value.toFixed(2)} kWh`),
          },
        ],
      },
      [parts.map((_part, index) => index), parts.map((part) => part.kWh)],
      element,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: element.clientWidth, height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [parts, period, series, part]);
  return <div ref={box} className="chart chart--short" role="img" aria-label={label} />;
}
