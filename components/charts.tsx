// Small server- or client-rendered SVG charts with fixed proportions (no layout shift), each with a
// text summary for screen readers. A partial point (the current hour, lib/portal/hourly.ts) is drawn
// lighter and dashed: it is not over yet.
import type { Point } from "@/lib/portal/hourly";

export { toPoints } from "@/lib/portal/hourly";

const W = 360;
const H = 130;
const PAD = { top: 12, right: 2, bottom: 18, left: 2 };

function Axis({ points }: { points: Point[] }) {
  if (points.length < 2) return null;
  const innerW = W - PAD.left - PAD.right;
  const marks = [0, Math.floor((points.length - 1) / 2), points.length - 1];
  return (
    <g className="fill-slate-600 text-[11px]">
      {marks.map((i) => (
        <text key={i} x={PAD.left + (innerW * (i + 0.5)) / points.length} y={H - 4} textAnchor={i === 0 ? "start" : i === points.length - 1 ? "end" : "middle"}>
          {points[i].label}
        </text>
      ))}
    </g>
  );
}

export function BarChart({ points, title, summary, colour = "fill-indigo-600" }: { points: Point[]; title: string; summary: string; colour?: string }) {
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const max = Math.max(1, ...points.map((p) => p.value ?? 0));
  const bw = points.length ? innerW / points.length : innerW;
  const id = title.replace(/\W+/g, "-").toLowerCase();
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="block aspect-[360/130] w-full" role="img" aria-labelledby={`${id}-t ${id}-d`}>
      <title id={`${id}-t`}>{title}</title>
      <desc id={`${id}-d`}>{summary}</desc>
      <line x1={PAD.left} x2={W - PAD.right} y1={PAD.top + innerH} y2={PAD.top + innerH} className="stroke-slate-300" />
      {/* The y axis: the top of the scale and its middle (bars are scaled to the largest value). */}
      {[1, 0.5].map((f) => (
        <g key={f} aria-hidden="true">
          <line x1={PAD.left} x2={W - PAD.right} y1={PAD.top + innerH * (1 - f)} y2={PAD.top + innerH * (1 - f)} className="stroke-slate-100" />
          <text x={W - PAD.right - 2} y={PAD.top + innerH * (1 - f) - 2} textAnchor="end" className="fill-slate-600 text-[11px]">
            {Number.isInteger(max * f) ? max * f : (max * f).toFixed(1)}
          </text>
        </g>
      ))}
      {points.map((p, i) => {
        const h = ((p.value ?? 0) / max) * innerH;
        return (
          <rect
            key={i}
            x={PAD.left + i * bw + bw * 0.12}
            width={Math.max(1, bw * 0.76)}
            y={PAD.top + innerH - h}
            height={h}
            className={p.partial ? `${colour} opacity-40` : colour}
            data-partial={p.partial ? "true" : undefined}
          >
            <title>{`${p.label}: ${p.value ?? 0}${p.partial ? " (hour not over yet)" : ""}`}</title>
          </rect>
        );
      })}
      <Axis points={points} />
    </svg>
  );
}

export function RateChart({ points, title, summary }: { points: Point[]; title: string; summary: string }) {
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const step = points.length ? innerW / points.length : innerW;
  const xy = (i: number, v: number) => [PAD.left + step * (i + 0.5), PAD.top + innerH * (1 - v)] as const;
  // Full hours as a solid line (broken where an hour has no reports); a partial hour as a dashed
  // step from the hour before and a hollow dot.
  const segments: string[] = [];
  let current = "";
  const partials: Array<{ i: number; v: number; from: readonly [number, number] | null }> = [];
  points.forEach((p, i) => {
    if (p.value === null || p.partial) {
      if (current) segments.push(current);
      current = "";
      const prev = points[i - 1];
      if (p.value !== null) partials.push({ i, v: p.value, from: prev && prev.value !== null && !prev.partial ? xy(i - 1, prev.value) : null });
      return;
    }
    const [x, y] = xy(i, p.value);
    current += `${current ? "L" : "M"}${x.toFixed(1)},${y.toFixed(1)} `;
  });
  if (current) segments.push(current);
  const id = title.replace(/\W+/g, "-").toLowerCase();
  return (
    <svg viewBox={`0 0 ${W} ${H}`} className="block aspect-[360/130] w-full" role="img" aria-labelledby={`${id}-t ${id}-d`}>
      <title id={`${id}-t`}>{title}</title>
      <desc id={`${id}-d`}>{summary}</desc>
      {[0, 0.5, 1].map((v) => (
        <g key={v}>
          <line x1={PAD.left} x2={W - PAD.right} y1={PAD.top + innerH * (1 - v)} y2={PAD.top + innerH * (1 - v)} className="stroke-slate-200" />
          <text x={PAD.left + 2} y={PAD.top + innerH * (1 - v) - 2} className="fill-slate-600 text-[11px]">
            {v * 100}%
          </text>
        </g>
      ))}
      {segments.map((d, i) => (
        <path key={i} d={d} className="fill-none stroke-emerald-700" strokeWidth={2} strokeLinejoin="round" />
      ))}
      {/* Every full hour's value on hover: a column-wide invisible target with its title. */}
      {points.map((p, i) =>
        p.partial ? null : (
          <rect key={`h${i}`} x={PAD.left + step * i} width={step} y={PAD.top} height={innerH} className="fill-transparent" data-hour={p.label}>
            <title>{`${p.label}: ${p.value === null ? "no reports" : `${Math.round(p.value * 1000) / 10}%`}`}</title>
          </rect>
        ),
      )}
      {partials.map(({ i, v, from }) => {
        const [x, y] = xy(i, v);
        return (
          <g key={`p${i}`} data-partial="true">
            <title>{`${points[i].label}: ${Math.round(v * 1000) / 10}%`}</title>
            {from && <path d={`M${from[0].toFixed(1)},${from[1].toFixed(1)} L${x.toFixed(1)},${y.toFixed(1)}`} className="fill-none stroke-emerald-700" strokeWidth={1.5} strokeDasharray="3 3" />}
            <circle cx={x} cy={y} r={3} className="fill-white stroke-emerald-700" strokeWidth={1.5} />
          </g>
        );
      })}
      <Axis points={points} />
    </svg>
  );
}
