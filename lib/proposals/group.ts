// Grouping the unmapped import queue into proposed capabilities (pure, deterministic). An item's
// salient words are the words of its description, service name, tags and URL path, minus stop
// words, minus the words of existing capability ids (those the registry already covers) and minus
// its own host's labels (one seller's brand is not a job). Greedily, the word shared by the most
// hosts seeds a group of the still ungrouped items that have it; a group needs at least
// MIN_LISTINGS listings from at least MIN_HOSTS hosts: a capability is a job with several sellers.
import { STOPWORDS } from "@/lib/discovery/intent/text";

export const MIN_LISTINGS = 2;
export const MIN_HOSTS = 2;

export type QueueItem = {
  url: string;
  sourceHost: string;
  host: string;
  description: string;
  /** The description, service name and tags, and URL path words (lib/imports/item.ts parts). */
  text: string;
  /** The resolver's nearest capabilities, best first. */
  candidates: Array<{ capability_id: string; confidence: number }>;
};

export type ProposedGroup = {
  capabilityId: string;
  categoryId: string;
  title: string;
  description: string;
  exampleIntents: string[];
  words: string[];
  items: QueueItem[];
};

/** Words that say nothing about the job in a catalogue of paid HTTP APIs. */
const CATALOGUE_WORDS = new Set(
  (
    "http https www com net org io dev xyz app v1 v2 v3 api json data info request requests response call calls " +
    "pay paid payment payments usdc usd x402 price per query access premium free fast simple powered based " +
    "agent agents ai mcp server resource resources route routes public private protected result results value values " +
    "input output fetch fetches retrieve retrieves lookup check checks run runs make makes create creates send sends " +
    "available provides provided support supports including include includes real time latest current given specified " +
    "web online service endpoint index html"
  ).split(/\s+/),
);

function singular(w: string): string {
  if (w.length > 4 && w.endsWith("ies")) return w.slice(0, -3) + "y";
  if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us") && !w.endsWith("is")) return w.slice(0, -1);
  return w;
}

/** The words of a text that may name a job, lower-case and singular, in order of first appearance. */
export function salientWords(text: string, exclude: ReadonlySet<string> = new Set()): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const raw of text
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)) {
    if (raw.length < 3 || /^\d/.test(raw) || STOPWORDS.has(raw) || CATALOGUE_WORDS.has(raw)) continue;
    const w = singular(raw);
    if (STOPWORDS.has(w) || CATALOGUE_WORDS.has(w) || exclude.has(w) || exclude.has(raw) || seen.has(w)) continue;
    seen.add(w);
    out.push(w);
  }
  return out;
}

/** The words of the registry's capability ids (weather.current -> weather, current). */
export function capabilityIdWords(ids: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const id of ids) for (const w of id.split(/[._]/)) if (w) out.add(singular(w)).add(w);
  return out;
}

function hostWords(host: string): string[] {
  return host.split(".").flatMap((l) => l.split("-")).filter((l) => l.length >= 3);
}

function firstSentence(text: string, max = 120): string {
  const s = text.split(/(?<=[.!?])\s/)[0]?.trim() ?? "";
  return s.length > max ? s.slice(0, max - 1).trimEnd() + "…" : s;
}

/**
 * Groups the queue. `existingIds` are the registry's capability ids (their words are excluded, and a
 * suggested id never equals one); `categoryOf` maps a capability id to its category.
 */
export function groupQueue(items: QueueItem[], existingIds: Iterable<string>, fallbackCategory = "util"): ProposedGroup[] {
  const ids = new Set(existingIds);
  const excluded = capabilityIdWords(ids);
  const sorted = [...items].sort((a, b) => a.url.localeCompare(b.url) || a.sourceHost.localeCompare(b.sourceHost));
  const wordsOf = new Map<QueueItem, string[]>();
  for (const it of sorted) {
    const own = new Set(hostWords(it.host));
    wordsOf.set(it, salientWords(it.text, new Set([...excluded, ...own])));
  }
  const hostsByWord = new Map<string, Set<string>>();
  const itemsByWord = new Map<string, number>();
  for (const it of sorted) {
    for (const w of wordsOf.get(it)!) {
      if (!hostsByWord.has(w)) hostsByWord.set(w, new Set());
      hostsByWord.get(w)!.add(it.host);
      itemsByWord.set(w, (itemsByWord.get(w) ?? 0) + 1);
    }
  }
  const seeds = [...hostsByWord.entries()]
    .filter(([, hosts]) => hosts.size >= MIN_HOSTS)
    .map(([w, hosts]) => ({ w, hosts: hosts.size, n: itemsByWord.get(w)! }))
    .sort((a, b) => b.hosts - a.hosts || b.n - a.n || a.w.localeCompare(b.w));

  const grouped = new Set<QueueItem>();
  const groups: ProposedGroup[] = [];
  const usedIds = new Set<string>();
  for (const { w } of seeds) {
    const members = sorted.filter((it) => !grouped.has(it) && wordsOf.get(it)!.includes(w));
    const hosts = new Set(members.map((m) => m.host));
    if (members.length < MIN_LISTINGS || hosts.size < MIN_HOSTS) continue;
    // The group's words: those of at least two of its hosts, the seed first, then by hosts and count.
    const counts = new Map<string, { hosts: Set<string>; n: number }>();
    for (const m of members) {
      for (const x of wordsOf.get(m)!) {
        const c = counts.get(x) ?? { hosts: new Set<string>(), n: 0 };
        c.hosts.add(m.host);
        c.n += 1;
        counts.set(x, c);
      }
    }
    const shared = [...counts.entries()]
      .filter(([x, c]) => x !== w && c.hosts.size >= MIN_HOSTS)
      .sort((a, b) => b[1].hosts.size - a[1].hosts.size || b[1].n - a[1].n || a[0].localeCompare(b[0]))
      .map(([x]) => x);
    const words = [w, ...shared].slice(0, 8);
    const categoryId = categoryOfMembers(members, fallbackCategory);
    let slug = words.slice(0, 2).join("_");
    let capabilityId = `${categoryId}.${slug}`;
    for (let i = 2; ids.has(capabilityId) || usedIds.has(capabilityId); i++) {
      slug = `${words.slice(0, 2).join("_")}_${i}`;
      capabilityId = `${categoryId}.${slug}`;
    }
    usedIds.add(capabilityId);
    for (const m of members) grouped.add(m);
    const described = members.map((m) => m.description.trim()).filter((d) => d.length >= 10);
    const representative = [...described].sort((a, b) => a.length - b.length || a.localeCompare(b))[0] ?? "";
    const title = words.slice(0, 2).join(" ");
    groups.push({
      capabilityId,
      categoryId,
      title: title.charAt(0).toUpperCase() + title.slice(1),
      description: firstSentence(representative, 300) || `Listings about ${words.slice(0, 3).join(", ")}`,
      exampleIntents: [...new Set(described.map((d) => firstSentence(d)))].slice(0, 5),
      words,
      items: members,
    });
  }
  return groups;
}

/** The category most of the members' nearest capabilities are in (ties: alphabetical), else the fallback. */
function categoryOfMembers(members: QueueItem[], fallback: string): string {
  const votes = new Map<string, number>();
  for (const m of members) {
    const c = m.candidates[0]?.capability_id.split(".")[0];
    if (c) votes.set(c, (votes.get(c) ?? 0) + 1);
  }
  const best = [...votes.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  return best && best[1] * 2 > members.length ? best[0] : fallback;
}
