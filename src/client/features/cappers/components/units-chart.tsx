import { useEffect, useRef, useState } from 'react';
import type { ChartPoint } from '#common/schemas/cappers.js';
import { formatUnits } from './record-figures';

const HEIGHT = 220;
const PAD = { top: 12, right: 12, bottom: 26, left: 56 };
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;
const DAY = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});

/** Drawn at its real pixel width, so its text stays legible from a phone to a wide screen. */
function useWidth<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setWidth(Math.floor(entry.contentRect.width));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/** A round step for the axis: 1, 2 or 5 times a power of ten. */
function niceStep(span: number): number {
  const rough = span / 4;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  for (const step of [1, 2, 5, 10]) if (rough <= step * magnitude) return step * magnitude;
  return 10 * magnitude;
}

export function chartSummary(points: readonly ChartPoint[]): string {
  if (points.length === 0) return 'No graded picks yet.';
  const values = points.map((point) => point.units);
  const last = values[values.length - 1]!;
  return (
    `Cumulative units over ${points.length} graded ${points.length === 1 ? 'pick' : 'picks'}, ` +
    `from ${DAY.format(new Date(points[0]!.at))} to ${DAY.format(new Date(points[points.length - 1]!.at))}: ` +
    `${formatUnits(last)} now, highest ${formatUnits(Math.max(...values))}, lowest ${formatUnits(Math.min(...values))}.`
  );
}

/**
 * The capper's cumulative units, one point per graded pick in grading order: a hand-drawn SVG line. The
 * picture is one image named by its summary; the same numbers follow as a visually hidden table.
 */
export function UnitsChart({ points }: { points: readonly ChartPoint[] }) {
  const [containerRef, width] = useWidth<HTMLDivElement>();
  // Start from zero units before the first pick, so the line shows the first result too.
  const values = [0, ...points.map((point) => point.units)];
  const step = niceStep(Math.max(1, Math.max(...values) - Math.min(...values)));
  const top = Math.ceil(Math.max(...values, 0) / step) * step || step;
  const bottom = Math.floor(Math.min(...values, 0) / step) * step;
  const plotW = Math.max(0, width - PAD.left - PAD.right);
  const x = (index: number) => PAD.left + (values.length > 1 ? (plotW * index) / (values.length - 1) : 0);
  const y = (value: number) => PAD.top + (PLOT_H * (top - value)) / (top - bottom);
  const ticks: number[] = [];
  for (let tick = bottom; tick <= top + step / 2; tick += step) ticks.push(Math.round(tick * 100) / 100);
  const path = values
    .map((value, index) => `${index ? 'L' : 'M'}${x(index).toFixed(1)},${y(value).toFixed(1)}`)
    .join(' ');
  const last = values[values.length - 1]!;

  return (
    <figure className="grid min-w-0 gap-2">
      <figcaption className="text-sm font-semibold">Cumulative units</figcaption>
      <div ref={containerRef} className="relative h-[220px] w-full">
        {width > 0 && (
          <svg
            width={width}
            height={HEIGHT}
            viewBox={`0 0 ${width} ${HEIGHT}`}
            role="img"
            aria-label={chartSummary(points)}
            className="absolute inset-0 block"
          >
            {ticks.map((tick) => (
              <g key={tick} aria-hidden>
                <line
                  x1={PAD.left}
                  x2={width - PAD.right}
                  y1={y(tick)}
                  y2={y(tick)}
                  className={tick === 0 ? 'stroke-muted-foreground/60' : 'stroke-border'}
                  strokeWidth={1}
                />
                <text
                  x={PAD.left - 8}
                  y={y(tick)}
                  dy="0.32em"
                  textAnchor="end"
                  className="fill-muted-foreground text-[11px]"
                >
                  {formatUnits(tick)}
                </text>
              </g>
            ))}
            <path
              d={path}
              fill="none"
              strokeWidth={2}
              strokeLinejoin="round"
              className={last >= 0 ? 'stroke-emerald-600' : 'stroke-destructive'}
            />
            {points.length > 0 && (
              <g aria-hidden className="fill-muted-foreground text-[11px]">
                <text x={PAD.left} y={HEIGHT - 6} textAnchor="start">
                  {DAY.format(new Date(points[0]!.at))}
                </text>
                <text x={width - PAD.right} y={HEIGHT - 6} textAnchor="end">
                  {DAY.format(new Date(points[points.length - 1]!.at))}
                </text>
              </g>
            )}
          </svg>
        )}
      </div>
      <table className="sr-only">
        <caption>Cumulative units after each graded pick</caption>
        <thead>
          <tr>
            <th scope="col">Graded</th>
            <th scope="col">Cumulative units</th>
          </tr>
        </thead>
        <tbody>
          {points.map((point, index) => (
            <tr key={`${point.at}-${index}`}>
              <td>{DAY.format(new Date(point.at))}</td>
              <td>{formatUnits(point.units)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
