// The 7-day figures the ranking reads, from a ledger's hourly rollups at a simulated time: what
// getObservedFigures computes in SQL (lib/outcomes/figures.ts), with the same quantile function,
// and stored as the rollup job stores them: recomputed once an endpoint has new reports (here at
// the next count, the job's FIGURES_REFRESH_MS being about one simulated step) and at least hourly
// as the window slides. tests/integration/ranking-ledger.test.ts compares it with getObservedFigures.
import { emptyFigures, type ObservedFigures } from "@/lib/outcomes/figures";
import { BUCKET_COUNT, bucketBounds, quantileOf, type Histogram } from "@/lib/outcomes/histogram";
import type { HourRow, Ledger } from "./ledger";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const round4 = (x: number) => Math.round(x * 10_000) / 10_000;

/** The figures of one endpoint at `now` from its hourly rows (hours in the 7 days before now). */
export function figuresAt(rows: Iterable<HourRow>, now: number, withLatency = true): ObservedFigures {
  const f = emptyFigures();
  const dayWs = new Array<number>(7).fill(0);
  const dayWt = new Array<number>(7).fill(0);
  const seen = new Array<boolean>(7).fill(false);
  const hist: Histogram = {};
  let any = false;
  for (const r of rows) {
    if (!(r.hour > now - WEEK)) continue;
    any = true;
    const day = Math.min(6, Math.max(0, Math.floor((now - r.hour) / DAY)));
    seen[day] = true;
    dayWs[day] += r.wSuccess;
    dayWt[day] += r.wTotal;
    f.sample_size_7d += r.reports;
    if (withLatency) for (const k in r.hist) hist[k] = (hist[k] ?? 0) + r.hist[k];
  }
  if (!any) return f;
  for (let day = 0; day < 7; day++) {
    f.weighted_success_7d += dayWs[day];
    f.weighted_total_7d += dayWt[day];
    if (seen[day]) f.daily_success[6 - day] = dayWt[day] > 0 ? dayWs[day] / dayWt[day] : null;
  }
  if (f.weighted_total_7d > 0) f.success_rate_7d = round4(f.weighted_success_7d / f.weighted_total_7d);
  const p95 = quantileOf(hist, 0.95);
  f.p95_latency_ms = p95 === null ? null : Math.round(p95);
  return f;
}

/**
 * The stored figures of every endpoint, kept as the rollup job keeps endpoint_figures. figuresAt's
 * work, done incrementally: the histogram of the window's finished hours is kept per endpoint and
 * slid by one hour at a time (weights are sums of small integers, so adding and removing is exact).
 */
export class FiguresStore {
  private stored = new Map<string, { figures: ObservedFigures; at: number }>();
  private dirty = new Set<string>();
  private windows = new Map<string, Window>();

  /** verify: check every computation against figuresAt over all rows (tests). */
  constructor(
    private ledger: Ledger,
    private verify = false,
  ) {}

  /** After a count: these endpoints have new reports. */
  changed(ids: Iterable<string>): void {
    for (const id of ids) this.dirty.add(id);
  }

  /** Whether get would answer what it answered last time. */
  unchanged(endpointId: string, now: number): boolean {
    const s = this.stored.get(endpointId);
    return !this.dirty.has(endpointId) && (!s || s.at > now - HOUR);
  }

  get(endpointId: string, now: number): ObservedFigures {
    const s = this.stored.get(endpointId);
    if (s && !this.dirty.has(endpointId) && s.at > now - HOUR) return s.figures;
    if (!s && !this.dirty.has(endpointId)) return EMPTY;
    this.dirty.delete(endpointId);
    const figures = this.compute(endpointId, now);
    if (this.verify) {
      const direct = figuresAt(this.ledger.rows(endpointId).values(), now);
      if (JSON.stringify(direct) !== JSON.stringify(figures)) {
        throw new Error(`figures of ${endpointId} at ${new Date(now).toISOString()}: ${JSON.stringify(figures)} != ${JSON.stringify(direct)}`);
      }
    }
    this.stored.set(endpointId, { figures, at: now });
    return figures;
  }

  private compute(endpointId: string, now: number): ObservedFigures {
    const rows = this.ledger.rows(endpointId);
    const hour = Math.floor(now / HOUR) * HOUR;
    const w = this.windowOf(endpointId, rows, hour);
    const current = rows.get(hour);
    const f = emptyFigures();
    if (!w.rows.length && !current) return f;
    // figuresAt's sums in one pass without allocating (this runs about a million times a world).
    const dayWs = [0, 0, 0, 0, 0, 0, 0];
    const dayWt = [0, 0, 0, 0, 0, 0, 0];
    const seen = [false, false, false, false, false, false, false];
    const n = w.rows.length + (current ? 1 : 0);
    for (let i = 0; i < n; i++) {
      const r = i < w.rows.length ? w.rows[i] : current!;
      const day = Math.min(6, Math.max(0, Math.floor((now - r.hour) / DAY)));
      seen[day] = true;
      dayWs[day] += r.wSuccess;
      dayWt[day] += r.wTotal;
      f.sample_size_7d += r.reports;
    }
    for (let day = 0; day < 7; day++) {
      f.weighted_success_7d += dayWs[day];
      f.weighted_total_7d += dayWt[day];
      if (seen[day]) f.daily_success[6 - day] = dayWt[day] > 0 ? dayWs[day] / dayWt[day] : null;
    }
    if (f.weighted_total_7d > 0) f.success_rate_7d = round4(f.weighted_success_7d / f.weighted_total_7d);
    const hist = this.scratch;
    hist.set(w.hist);
    if (current) for (const k in current.hist) hist[Number(k)] += current.hist[k];
    const p95 = nearestRank(hist, 0.95);
    f.p95_latency_ms = p95 === null ? null : Math.round(p95);
    return f;
  }

  private scratch = new Float64Array(BUCKET_COUNT);

  /** The finished hours of the window ending in `hour` (hours hour-167h to hour-1h). */
  private windowOf(endpointId: string, rows: Map<number, HourRow>, hour: number): Window {
    let w = this.windows.get(endpointId);
    if (w && w.hour === hour) return w;
    if (w && w.hour === hour - HOUR) {
      const leaving = rows.get(hour - 168 * HOUR);
      if (leaving) addHist(w.hist, leaving.hist, -1);
      const done = rows.get(hour - HOUR);
      if (done) addHist(w.hist, done.hist, 1);
      w.rows = w.rows.filter((r) => r.hour > hour - 168 * HOUR);
      if (done) w.rows.push(done);
      w.hour = hour;
      return w;
    }
    w = { hour, hist: new Float64Array(BUCKET_COUNT), rows: [] };
    for (const r of rows.values()) {
      if (r.hour >= hour || r.hour <= hour - 168 * HOUR) continue;
      w.rows.push(r);
      addHist(w.hist, r.hist, 1);
    }
    this.windows.set(endpointId, w);
    return w;
  }
}

type Window = { hour: number; hist: Float64Array; rows: HourRow[] };

/** quantileOf's answer for a histogram held as an array (same rank rule, same bucket middles). */
function nearestRank(hist: Float64Array, q: number): number | null {
  let total = 0;
  for (let b = 0; b < hist.length; b++) if (hist[b] > 0) total += hist[b];
  if (total <= 0) return null;
  const target = q * total * (1 - 1e-12);
  let seen = 0;
  let last = 0;
  for (let b = 0; b < hist.length; b++) {
    if (!(hist[b] > 0)) continue;
    last = b;
    seen += hist[b];
    if (seen >= target) return middleOf(b);
  }
  return middleOf(last);
}

function middleOf(bucket: number): number {
  const [lo, hi] = bucketBounds(bucket);
  return bucket === 0 ? (lo + hi) / 2 : Math.sqrt(lo * hi);
}

function addHist(into: Float64Array, h: Histogram, sign: 1 | -1): void {
  for (const k in h) into[Number(k)] += sign * h[k];
}

const EMPTY = Object.freeze(emptyFigures()) as ObservedFigures;
