// Deterministic randomness for the ranking evaluation. Draws are keyed (a hash of the seed and the
// draw's own coordinates: capability, call number, endpoint...), not taken from one shared stream,
// so two worlds that differ only by an adversary see the same honest traffic and the same outcome
// for the same call to the same endpoint, and their rankings can be compared call by call.

/** A uniform number in [0, 1) from integer coordinates (murmur3's finaliser over a running mix). */
export function uniform(...keys: number[]): number {
  let h = 0x9e3779b9;
  for (const k of keys) {
    h = Math.imul(h ^ (k | 0), 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h ^ Math.floor(k / 4_294_967_296), 0xc2b2ae35);
    h ^= h >>> 16;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return (h >>> 0) / 4_294_967_296;
}

/** A standard normal draw from two keyed uniforms (Box-Muller). */
export function normal(...keys: number[]): number {
  const u = uniform(...keys, 1);
  const v = uniform(...keys, 2);
  return Math.sqrt(-2 * Math.log(1 - u)) * Math.cos(2 * Math.PI * v);
}

/** Log-uniform between lo and hi. */
export function logUniform(u: number, lo: number, hi: number): number {
  return Math.exp(Math.log(lo) + u * (Math.log(hi) - Math.log(lo)));
}

/** A sequential stream (for things drawn once, in order: the network, the agents' arrival times). */
export function stream(...keys: number[]) {
  let i = 0;
  const next = () => uniform(...keys, i++);
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    exponential: (ratePerMs: number) => -Math.log(1 - next()) / ratePerMs,
  };
}

/** A uuid-shaped id from numbers (kind < 2^32, a < 2^28, b < 2^44), stable across runs. */
export function uuidOf(kind: number, a: number, b = 0): string {
  const hex = (n: number, len: number) => (n >>> 0).toString(16).padStart(len, "0").slice(-len);
  return `${hex(kind, 8)}-${hex(a >>> 12, 4)}-4${hex(a & 0xfff, 3)}-8${hex(Math.floor(b / 4_294_967_296) & 0xfff, 3)}-0000${hex(b, 8)}`;
}
