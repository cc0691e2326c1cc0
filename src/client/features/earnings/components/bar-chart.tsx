import { useEffect, useId, useRef, useState } from 'react';

/** `label` names the period in full (tooltips, summary); `tick` is the short form under the axis. */
export type ChartPoint = { label: string; tick?: string; value: number };

type BarChartProps = {
  title: string;
  points: ChartPoint[];
  /** How a value reads in labels and tooltips ("$12.00", "3 sales"). */
  format: (value: number) => string;
  /** Counts: no axis line at a fraction ("2.5 sales"). */
  integer?: boolean;
  /** Tailwind fill class for the bars. */
  barClassName?: string;
};

const HEIGHT = 200;
const PAD = { top: 10, right: 8, bottom: 26, left: 64 };
const PLOT_H = HEIGHT - PAD.top - PAD.bottom;

/** A round upper bound for the axis: 1, 2, 2.5 or 5 times a power of ten. */
export function niceMax(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (value <= step * magnitude) return step * magnitude;
  }
  return 10 * magnitude;
}

/** The chart is drawn at its real pixel width, so its text stays legible from a phone to a wide screen. */
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

/**
 * A dependency-free SVG bar chart. The picture is one image whose name and description give the summary
 * (period, total, peak); each bar carries its own label as a tooltip, and the page offers the same numbers
 * as a table.
 */
export function BarChart({
  title,
  points,
  format,
  integer = false,
  barClassName = 'fill-primary',
}: BarChartProps) {
  const titleId = useId();
  const descId = useId();
  const [containerRef, width] = useWidth<HTMLDivElement>();
  const max = niceMax(Math.max(0, ...points.map((point) => point.value)));
  const plotW = Math.max(0, width - PAD.left - PAD.right);
  const slot = points.length > 0 ? plotW / points.length : plotW;
  const barWidth = Math.max(1, slot * 0.7);
  const total = points.reduce((sum, point) => sum + point.value, 0);
  const peak = points.reduce<ChartPoint | null>(
    (best, point) => (!best || point.value > best.value ? point : best),
    null,
  );
  const summary =
    points.length === 0
      ? 'No data.'
      : `${points.length} periods from ${points[0]!.label} to ${points[points.length - 1]!.label}. ` +
        `Total ${format(total)}.` +
        (peak && peak.value > 0 ? ` Highest: ${format(peak.value)}, ${peak.label}.` : '');
  const ticks = [0, 0.5, 1].filter((fraction) => !integer || Number.isInteger(max * fraction));
  // Label the first, middle and last bars: enough to read the time axis without crowding it.
  const labelled = new Set([0, Math.floor((points.length - 1) / 2), points.length - 1]);

  return (
    <figure className="grid min-w-0 gap-2">
      <figcaption className="text-sm font-semibold">{title}</figcaption>
      {/* The drawing is positioned out of the flow, so its pixel width never holds the box open: the box
          follows the page as it narrows (a phone turned upright), and the chart is redrawn to fit. */}
      <div ref={containerRef} className="relative h-[200px] w-full">
        {width > 0 && (
          <svg
            width={width}
            height={HEIGHT}
            viewBox={`0 0 ${width} ${HEIGHT}`}
            role="img"
            aria-labelledby={`${titleId} ${descId}`}
            className="absolute inset-0 block"
          >
            <title id={titleId}>{title}</title>
            <desc id={descId}>{summary}</desc>
            {ticks.map((fraction) => {
              const y = PAD.top + PLOT_H * (1 - fraction);
              return (
                <g key={fraction} aria-hidden>
                  <line
                    x1={PAD.left}
                    x2={width - PAD.right}
                    y1={y}
                    y2={y}
                    className="stroke-border"
                    strokeWidth={1}
                  />
                  <text
                    x={PAD.left - 8}
                    y={y}
                    dy="0.32em"
                    textAnchor="end"
                    className="fill-muted-foreground text-[11px]"
                  >
                    {format(max * fraction)}
                  </text>
                </g>
              );
            })}
            {points.map((point, index) => {
              const height = (point.value / max) * PLOT_H;
              const x = PAD.left + slot * index + (slot - barWidth) / 2;
              return (
                <g key={`${point.label}-${index}`}>
                  <rect
                    x={x}
                    y={PAD.top + PLOT_H - Math.max(height, point.value > 0 ? 1 : 0)}
                    width={barWidth}
                    height={Math.max(height, point.value > 0 ? 1 : 0)}
                    rx={Math.min(3, barWidth / 3)}
                    className={barClassName}
                  >
                    <title>{`${point.label}: ${format(point.value)}`}</title>
                  </rect>
                  {labelled.has(index) && (
                    <text
                      aria-hidden
                      x={index === 0 ? x : index === points.length - 1 ? x + barWidth : x + barWidth / 2}
                      y={HEIGHT - 6}
                      textAnchor={index === 0 ? 'start' : index === points.length - 1 ? 'end' : 'middle'}
                      className="fill-muted-foreground text-[11px]"
                    >
                      {point.tick ?? point.label}
                    </text>
                  )}
                </g>
              );
            })}
          </svg>
        )}
      </div>
    </figure>
  );
}
