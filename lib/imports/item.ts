// One catalogue item (x402 v2, or the older v1 shape) checked and reduced to the facts of a listing:
// its URL (the submission rules: https, a public host name), method, price in USD from `accepts`
// (atomic units converted with the asset's decimals; stablecoins only), network, assets, payment
// requirements, declaration and words for mapping. A bad item yields a stable skip reason.
import { PaymentRequirementsV1Schema, PaymentRequirementsV2Schema } from "@x402/core/schemas";
import type { PaymentRequirementsV1 } from "@x402/core/types";
import type { PaymentSeenValue } from "@/lib/db/schema";
import { isApiError } from "@/lib/http/errors";
import { assetDecimals, atomicToPrice } from "@/lib/probes/assets";
import { readDeclarationV1, readDeclarationV2, type CallShape, type Declaration } from "@/lib/probes/declaration";
import { NETWORKS, normalizeNetwork, type NetworkName } from "@/lib/schemas/networks";
import { checkEndpointUrl } from "@/lib/submissions/url";

export type SkipReason =
  | "malformed_item"
  | "missing_resource"
  | "invalid_url"
  | "insecure_url"
  | "private_url"
  | "invalid_price"
  | "unknown_network"
  | "non_usd_asset";

export type ParsedItem = {
  url: string;
  host: string;
  domain: string;
  type: "http" | "mcp";
  method: string;
  description: string;
  serviceName: string | null;
  tags: string[];
  pricePerCall: number;
  network: NetworkName;
  acceptedAssets: string[];
  paymentSeen: PaymentSeenValue;
  declaration: Declaration | null;
  call: CallShape | null;
  /** What the intent resolver reads to map the item to a capability: everything, and each part alone. */
  mappingText: string;
  parts: MappingParts;
  /** Declared input field names, sorted (two listings with the same description and these are duplicates). */
  inputNames: string[];
};

/** The item's words by where they come from (lib/imports/map.ts resolves each alone, and all together). */
export type MappingParts = {
  description: string;
  /** The service name and tags. */
  name: string;
  /** The URL path's words. */
  path: string;
  /** Names of the declared input fields (or MCP tool) and output keys, split into words. */
  fields: string;
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown, max: number): string => (typeof v === "string" ? v.trim().slice(0, max) : "");
const ATOMIC = /^\d{1,40}$/;

/**
 * `ignorePrice` (evaluation only, scripts/eval-mapping.ts): an item without a valid offer is read anyway,
 * priced 0 on base, so that its mapping can be scored apart from its price's validity.
 */
export function parseItem(raw: unknown, pageVersion: number | null, allowPrivate = false, opts: { ignorePrice?: boolean } = {}): { ok: true; item: ParsedItem } | { ok: false; reason: SkipReason } {
  if (!isObj(raw)) return { ok: false, reason: "malformed_item" };
  const resource = isObj(raw.resource) ? raw.resource.url : raw.resource;
  if (typeof resource !== "string" || !resource.trim()) return { ok: false, reason: "missing_resource" };
  let target;
  try {
    target = checkEndpointUrl(resource.trim(), { allowPrivate });
  } catch (err) {
    if (!isApiError(err)) throw err;
    const detail = err.errors?.[0]?.detail ?? "";
    return { ok: false, reason: /https/.test(detail) ? "insecure_url" : /IP address|special-use|internal|public suffix/.test(detail) ? "private_url" : "invalid_url" };
  }
  const version = raw.x402Version === 1 || raw.x402Version === 2 ? raw.x402Version : (pageVersion ?? 2);
  if (!Array.isArray(raw.accepts) || !raw.accepts.length) {
    if (!opts.ignorePrice) return { ok: false, reason: "invalid_price" };
  }
  const offers: unknown[] = Array.isArray(raw.accepts) ? raw.accepts : [];

  // The first offer on a known network, priced in a USD stablecoin, is the listing's price.
  let chosen: { network: NetworkName; price: number; symbol: string } | null = null;
  let unknownNetwork = false;
  let nonUsd = false;
  const accepts: PaymentSeenValue["accepts"] = [];
  let firstV1: PaymentRequirementsV1 | undefined;
  for (const a of offers.slice(0, 20)) {
    const offerIn = tolerantOffer(a, version);
    const parsed = version === 1 ? PaymentRequirementsV1Schema.safeParse(offerIn) : PaymentRequirementsV2Schema.safeParse(offerIn);
    if (!parsed.success) continue;
    const offer = parsed.data as Obj & { scheme: string; network: string; asset: string; payTo: string; maxTimeoutSeconds: number; extra?: Obj | null };
    if (version === 1) firstV1 ??= parsed.data as unknown as PaymentRequirementsV1;
    const amount = String(version === 1 ? offer.maxAmountRequired : offer.amount);
    if (!ATOMIC.test(amount)) continue;
    const network = normalizeNetwork(offer.network);
    if (!network) {
      unknownNetwork = true;
      continue;
    }
    const d = assetDecimals(network, offer.asset, offer.extra);
    const name = typeof offer.extra?.name === "string" ? offer.extra.name : "";
    const usd = d.source === "known_usdc" || /\bUSD/i.test(name);
    accepts.push({
      scheme: str(offer.scheme, 50),
      network: NETWORKS[network],
      amount,
      asset: str(offer.asset, 100),
      payTo: str(offer.payTo, 100),
      maxTimeoutSeconds: offer.maxTimeoutSeconds,
      extra: offer.extra && JSON.stringify(offer.extra).length <= 2048 ? offer.extra : null,
    });
    if (!usd) {
      nonUsd = true;
      continue;
    }
    const price = atomicToPrice(BigInt(amount), d.decimals);
    if (!Number.isFinite(price) || price > 1000) continue;
    chosen ??= { network, price, symbol: d.symbol ?? (/tether|usdt/i.test(name) ? "USDT" : "USDC") };
  }
  if (!chosen) {
    const reason = unknownNetwork && !accepts.length ? "unknown_network" : nonUsd ? "non_usd_asset" : "invalid_price";
    if (reason !== "invalid_price" || !opts.ignorePrice) return { ok: false, reason };
    chosen = { network: "base", price: 0, symbol: "USDC" };
  }

  const metadata = isObj(raw.metadata) ? raw.metadata : {};
  const description = str(raw.description, 500) || str(metadata.description, 500) || str(firstV1?.description, 500);
  const serviceName = str(raw.serviceName, 100) || str(metadata.serviceName, 100) || null;
  const tags = (Array.isArray(raw.tags) ? raw.tags : Array.isArray(metadata.tags) ? metadata.tags : [])
    .filter((t): t is string => typeof t === "string")
    .slice(0, 10)
    .map((t) => t.slice(0, 50));
  const type = raw.type === "mcp" ? "mcp" : "http";
  const declared = version === 1 ? readDeclarationV1(firstV1, "GET") : readDeclarationV2(raw.extensions, "GET");
  const valid = declared.status === "valid" ? declared : null;
  const method = valid?.call.method ?? (type === "mcp" ? "POST" : "GET");
  const path = decodeURIComponentSafe(new URL(target.url).pathname).replace(/[/_.\-]+/g, " ");
  const { words: fields, input: inputNames } = fieldWords(valid?.call ?? null, raw, firstV1);
  const name = [serviceName ?? "", tags.join(" ")].join(" ").replace(/\s+/g, " ").trim();
  const mimeType = str(raw.mimeType, 100) || str(firstV1?.mimeType, 100);
  return {
    ok: true,
    item: {
      url: target.url,
      host: target.host,
      domain: target.domain,
      type,
      method: ["GET", "POST", "PUT", "PATCH", "DELETE"].includes(method) ? method : "GET",
      description,
      serviceName,
      tags,
      pricePerCall: chosen.price,
      network: chosen.network,
      acceptedAssets: [chosen.symbol],
      paymentSeen: {
        x402_version: version,
        accepts,
        resource: { ...(description ? { description } : {}), ...(mimeType ? { mimeType } : {}), ...(serviceName ? { serviceName } : {}), ...(tags.length ? { tags } : {}) },
        via: "catalogue",
      },
      declaration: valid?.declaration ?? null,
      call: valid?.call ?? null,
      mappingText: [description, name, path].join(" ").replace(/\s+/g, " ").trim().slice(0, 500),
      parts: { description, name: name.slice(0, 300), path: path.replace(/\s+/g, " ").trim().slice(0, 300), fields },
      inputNames,
    },
  };
}

/** A catalogue item's offer lacking `maxTimeoutSeconds` is read with this one (a probe reads the real 402 before ranking). */
export const DEFAULT_MAX_TIMEOUT_SECONDS = 60;

/**
 * Two shapes real catalogues publish that the schemas refuse, read as what they mean: an offer with no
 * `maxTimeoutSeconds` (a catalogue advertises a price, the endpoint's own 402 gives the timeout: the
 * probe records it) gets the default; an x402 v2 offer written in the v1 spelling (`maxAmountRequired`,
 * no `amount`: early-2026 CDP items) has that as its amount. Anything else is left for the schema to judge.
 */
function tolerantOffer(a: unknown, version: number): unknown {
  if (!isObj(a)) return a;
  let o = a;
  if (o.maxTimeoutSeconds === undefined || o.maxTimeoutSeconds === null) o = { ...o, maxTimeoutSeconds: DEFAULT_MAX_TIMEOUT_SECONDS };
  if (version === 2 && (o.amount === undefined || o.amount === null) && typeof o.maxAmountRequired === "string") o = { ...o, amount: o.maxAmountRequired };
  return o;
}

// JSON Schema's and envelopes' own words, which say nothing of what a listing does.
const SCHEMA_WORDS = new Set(
  "type properties required description items title input output response data error errors meta metadata status result results message ok success id x payment additional default enum format schema body query params".split(" "),
);
const keysOf = (v: unknown): string[] => (isObj(v) ? Object.keys(v).slice(0, 30) : []);

/**
 * The declared field names as words ("walletAddress" -> "wallet address"): input properties (or the
 * MCP tool's name and arguments) and output keys, from the valid declaration, else from the raw
 * item's v1 outputSchema or v2 bazaar info (a declaration that does not validate still names fields).
 */
function fieldWords(call: CallShape | null, raw: Obj, firstV1: PaymentRequirementsV1 | undefined): { words: string; input: string[] } {
  const names: string[] = [];
  const inputs = new Set<string>();
  if (call) {
    const input = call.input as Obj;
    if (typeof input.tool === "string") names.push(input.tool);
    names.push(...keysOf((input.schema as Obj | undefined)?.properties), ...keysOf(input.example));
    for (const n of names) inputs.add(n);
    const output = call.output as Obj | undefined;
    names.push(...keysOf(output?.example), ...keysOf((output?.schema as Obj | undefined)?.properties));
  } else {
    // A v1 offer's outputSchema; early v2 offers in the v1 spelling carry one too.
    const firstOffer = Array.isArray(raw.accepts) && isObj(raw.accepts[0]) ? raw.accepts[0] : undefined;
    const v1 = (firstV1 as unknown as Obj | undefined)?.outputSchema ?? firstOffer?.outputSchema;
    const info = isObj(raw.extensions) && isObj(raw.extensions.bazaar) ? raw.extensions.bazaar.info : undefined;
    for (const src of [v1, info]) {
      if (!isObj(src)) continue;
      const input = isObj(src.input) ? src.input : {};
      for (const k of ["queryParams", "bodyFields", "body", "headerFields", "properties"]) names.push(...keysOf(input[k]).filter((n) => !/^x-payment$/i.test(n)));
      if (typeof input.toolName === "string") names.push(input.toolName);
      for (const n of names) inputs.add(n);
      const output = isObj(src.output) ? src.output : {};
      names.push(...keysOf(isObj(output.example) ? output.example : output));
    }
  }
  const words = new Set<string>();
  for (const n of names) {
    for (const w of n
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/[_.\-/]+/g, " ")
      .toLowerCase()
      .split(/\s+/))
      if (w && !SCHEMA_WORDS.has(w) && !/^\$|^\d+$/.test(w) && words.size < 40) words.add(w.slice(0, 40));
  }
  return { words: [...words].join(" "), input: [...inputs].sort() };
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
