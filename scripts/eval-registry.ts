// A synthetic 1,000-capability registry for speed figures: the starter capabilities plus perturbed
// variants with extra vocabulary (ids "<id>_v<N>", unknown to the trained model).
import type { IntentDoc } from "../lib/discovery/intent";


// --- synthetic 1,000-capability registry: the 100 plus 900 perturbed variants with extra vocabulary.
/** A small seeded PRNG (deterministic figures and training shuffles). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function syntheticRegistry(base: IntentDoc[], total: number, seed = 42): IntentDoc[] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];
  const subset = <T>(xs: readonly T[], frac: number): T[] => xs.filter(() => rnd() < frac);
  const syllables = ["zor", "bix", "tal", "vem", "qua", "ri", "don", "lex", "pra", "mo", "sen", "tur", "ka", "vo", "nix", "pel"];
  const word = () => Array.from({ length: 2 + Math.floor(rnd() * 2) }, () => pick(syllables)).join("");
  const vendors = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay", "Stark", "Wayne", "Tyrell", "Cyberdyne"];
  const out = [...base];
  for (let k = 0; out.length < total; k++) {
    const b = base[k % base.length];
    const other = pick(base);
    const v = Math.floor(k / base.length) + 1;
    const descWords = other.description.split(/\s+/);
    out.push({
      id: `${b.id}_v${v}`,
      category: b.category,
      categoryTitle: b.categoryTitle,
      title: `${pick(vendors)} ${b.title}`,
      description: `${b.description} ${subset(descWords, 0.4).join(" ")} ${word()} ${word()}`,
      tags: [...subset(b.tags, 0.7), pick(other.tags), word()],
      aliases: [...subset(b.aliases ?? [], 0.6), ...subset(other.aliases ?? [], 0.15), `${word()} ${word()}`],
      examples: [...subset(b.examples ?? [], 0.5), `${pick(vendors).toLowerCase()} ${word()} ${pick(descWords)}`],
    });
  }
  return out;
}
