// Sharing equal values between the rows the candidate cache holds. Every row arrives from the
// driver with its own copy of every string and every parsed jsonb value, and at 100,000 endpoints
// those copies were most of the server's heap (docs/benchmarks.md, "Memory at 100,000 endpoints"):
// a provider's name once per endpoint, the same `extra: { name: "USD Coin", version: "2" }` in
// every offer, the same JSON Schema fragments (`{ type: "string" }`, the bazaar `$schema` URL) in
// every declaration. An Interner returns one shared copy of each distinct value it is given.
//
// Values are compared by content and key order (JSON text), so a shared copy serialises exactly as
// the original did. Shared values must not be mutated: the cache's candidates never are (ranking
// freezes the arrays it hands out, the x402 catalogue copies what it reshapes).

/** Strings of few distinct values (methods, networks, provider names, asset addresses...), per process. */
const shared = globalThis as unknown as { __capdexInternedStrings?: Map<string, string> };
const MAX_SHARED_STRINGS = 100_000;
const SHARED_MAX_LENGTH = 64;

export class Interner {
  /** Interned subtrees by their JSON text, for this interner's lifetime (one load) only. */
  private readonly values = new Map<string, unknown>();
  private readonly strings = (shared.__capdexInternedStrings ??= new Map());

  /**
   * One copy of each distinct string. Short ones (tokens: methods, networks, addresses, amounts,
   * names) are shared process-wide; longer ones (texts) within this interner only.
   */
  str<T extends string | null | undefined>(s: T): T {
    if (typeof s !== "string") return s;
    if (s.length > SHARED_MAX_LENGTH) return this.local(s) as T;
    const known = this.strings.get(s);
    if (known !== undefined) return known as T;
    if (this.strings.size >= MAX_SHARED_STRINGS) this.strings.clear();
    this.strings.set(s, s);
    return s;
  }

  private local(s: string): string {
    const key = `s${s}`;
    const known = this.values.get(key);
    if (known !== undefined) return known as string;
    this.values.set(key, s);
    return s;
  }

  /** One frozen copy of each distinct list of strings. */
  list(xs: readonly string[]): string[] {
    return this.json(xs) as string[];
  }

  /** One copy of each distinct JSON value, its subtrees shared too (arrays frozen). */
  json(v: unknown): unknown {
    return this.walk(v)[0];
  }

  private walk(v: unknown): [unknown, string] {
    if (v === null || typeof v !== "object") {
      if (typeof v === "string") return [this.str(v), JSON.stringify(v)];
      // undefined (an absent property) is skipped by the callers below, as JSON.stringify skips it.
      return [v, String(v)];
    }
    let key: string;
    let make: () => unknown;
    if (Array.isArray(v)) {
      const parts = v.map((x) => this.walk(x === undefined ? null : x));
      key = `[${parts.map((p) => p[1]).join(",")}]`;
      make = () => Object.freeze(parts.map((p) => p[0]));
    } else {
      const entries: Array<[string, unknown]> = [];
      const keys: string[] = [];
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        if (x === undefined || typeof x === "function") continue;
        const [value, text] = this.walk(x);
        const name = this.str(k);
        entries.push([name, value]);
        keys.push(`${JSON.stringify(name)}:${text}`);
      }
      key = `{${keys.join(",")}}`;
      make = () => Object.fromEntries(entries);
    }
    const known = this.values.get(key);
    if (known !== undefined) return [known, key];
    const made = make();
    this.values.set(key, made);
    return [made, key];
  }
}
