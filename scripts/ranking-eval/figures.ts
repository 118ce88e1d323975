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
    if (withLatency) for (const [k, v] of r.hist) hist[k] = (hist[k] ?? 0) + v;
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
    // figuresAt's sums: an hour k hours before the current one falls on day floor(k / 24) whatever
    // the minute, so the finished hours' sums per day hold for the whole hour; add the current one.
    const dayWs = w.dayWs.slice();
    const dayWt = w.dayWt.slice();
    const seen = w.seen.slice();
    f.sample_size_7d = w.reports;
    if (current) {
      seen[0] = true;
      dayWs[0] += current.wSuccess;
      dayWt[0] += current.wTotal;
      f.sample_size_7d += current.reports;
    }
    for (let day = 0; day < 7; day++) {
      f.weighted_success_7d += dayWs[day];
      f.weighted_total_7d += dayWt[day];
      if (seen[day]) f.daily_success[6 - day] = dayWt[day] > 0 ? dayWs[day] / dayWt[day] : null;
    }
    if (f.weighted_total_7d > 0) f.success_rate_7d = round4(f.weighted_success_7d / f.weighted_total_7d);
    const hist = this.scratch;
    hist.set(w.hist);
    let total = w.histTotal;
    if (current) {
      for (const [k, v] of current.hist) {
        hist[k] += v;
        total += v;
      }
    }
    const p95 = nearestRank(hist, total, 0.95);
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
      if (leaving) addHist(w, leaving.hist, -1);
      const done = rows.get(hour - HOUR);
      if (done) addHist(w, done.hist, 1);
      w.rows = w.rows.filter((r) => r.hour > hour - 168 * HOUR);
      if (done) w.rows.push(done);
      w.hour = hour;
      return summarize(w);
    }
    w = { hour, hist: new Float64Array(BUCKET_COUNT), histTotal: 0, rows: [], dayWs: [], dayWt: [], seen: [], reports: 0 };
    for (const r of rows.values()) {
      if (r.hour >= hour || r.hour <= hour - 168 * HOUR) continue;
      w.rows.push(r);
      addHist(w, r.hist, 1);
    }
    this.windows.set(endpointId, summarize(w));
    return w;
  }
}

type Window = { hour: number; hist: Float64Array; histTotal: number; rows: HourRow[]; dayWs: number[]; dayWt: number[]; seen: boolean[]; reports: number };

/** Sums of the window's finished hours per day, in row order (as figuresAt adds them). */
function summarize(w: Window): Window {
  w.dayWs = [0, 0, 0, 0, 0, 0, 0];
  w.dayWt = [0, 0, 0, 0, 0, 0, 0];
  w.seen = [false, false, false, false, false, false, false];
  w.reports = 0;
  for (const r of w.rows) {
    const day = Math.min(6, Math.floor((w.hour - r.hour) / DAY));
    w.seen[day] = true;
    w.dayWs[day] += r.wSuccess;
    w.dayWt[day] += r.wTotal;
    w.reports += r.reports;
  }
  return w;
}

/** quantileOf's answer for a histogram held as an array (same rank rule, same bucket middles). */
function nearestRank(hist: Float64Array, total: number, q: number): number | null {
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

function addHist(w: Window, h: Map<number, number>, sign: 1 | -1): void {
  for (const [k, v] of h) {
    w.hist[k] += sign * v;
    w.histTotal += sign * v;
  }
}

const EMPTY = Object.freeze(emptyFigures()) as ObservedFigures;
