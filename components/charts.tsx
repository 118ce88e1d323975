// Small server- or client-rendered SVG charts with fixed proportions (no layout shift), each with a
// text summary for screen readers.

const W = 360;
const H = 130;
const PAD = { top: 12, right: 2, bottom: 18, left: 2 };

type Point = { label: string; value: number | null };

/** Points labelled by age ("47 h ago" .. "now"), which reads the same in every time zone. */
export function toPoints<T extends { hour: string }>(rows: T[], pick: (r: T) => number | null): Point[] {
  return rows.map((r, i) => {
    const ago = rows.length - 1 - i;
    return { label: ago === 0 ? "this hour" : `${ago} h ago`, value: pick(r) };
  });
}

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
      {points.map((p, i) => {
        const h = ((p.value ?? 0) / max) * innerH;
        return <rect key={i} x={PAD.left + i * bw + bw * 0.12} width={Math.max(1, bw * 0.76)} y={PAD.top + innerH - h} height={h} className={colour} />;
      })}
      <Axis points={points} />
    </svg>
  );
}

export function RateChart({ points, title, summary }: { points: Point[]; title: string; summary: string }) {
  const innerW = W - PAD.left - PAD.right;
  const innerH = H - PAD.top - PAD.bottom;
  const step = points.length ? innerW / points.length : innerW;
  const segments: string[] = [];
  let current = "";
  points.forEach((p, i) => {
    if (p.value === null) {
      if (current) segments.push(current);
      current = "";
      return;
    }
    const x = PAD.left + step * (i + 0.5);
    const y = PAD.top + innerH * (1 - p.value);
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
      <Axis points={points} />
    </svg>
  );
}
