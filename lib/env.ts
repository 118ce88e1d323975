// The one reading of a numeric setting from the environment, for every domain's settings.

/**
 * `raw` (an environment value) as a number: `fallback` when it is unset, blank, not a number or
 * below `min` (default 0); at most `max`.
 */
export function numberSetting(raw: string | undefined, fallback: number, opts: { min?: number; max?: number } = {}): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && n >= (opts.min ?? 0) ? Math.min(n, opts.max ?? Infinity) : fallback;
}
