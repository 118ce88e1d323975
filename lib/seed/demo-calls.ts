// How to call the demo endpoints: per capability, an input example and an output example as a real
// provider's x402 bazaar declaration would carry them (turned into the declaration the official
// builder makes, lib/probes/declaration.ts). About one demo endpoint in five declares nothing, as in
// the real market. Deterministic: which endpoints declare is derived from their ids. Built without the
// official validators (~30 ms a call, too slow for every start-up); tests/unit/demo-calls.test.ts
// checks every one of them with the validators.
import { createHash } from "node:crypto";
import type { EndpointCallValue } from "@/lib/db/schema";
import { declarationOfSubmitted } from "@/lib/probes/declaration";
import { CATALOGUE } from "./catalogue";

type Obj = Record<string, unknown>;
/** [input example, output example]; the input's JSON Schema is derived from its example (every field required). */
const CALLS: Record<string, [Obj, Obj]> = {
  "weather.current": [{ city: "Oslo" }, { city: "Oslo", temperature_c: 4.5, condition: "light rain", wind_kph: 14 }],
  "weather.forecast": [{ city: "Oslo", days: 2 }, { city: "Oslo", days: [{ date: "2026-01-02", precipitation_mm: 3.2, chance_of_rain: 0.8, high_c: 6 }] }],
  "weather.historical": [{ city: "Lisbon", date: "2025-06-01" }, { date: "2025-06-01", high_c: 27.1, low_c: 17.4, precipitation_mm: 0 }],
  "weather.alerts": [{ lat: 29.76, lon: -95.37 }, { alerts: [{ event: "Flood Watch", severity: "moderate", ends: "2026-01-02T18:00:00Z" }] }],
  "weather.air_quality": [{ city: "Delhi" }, { aqi: 168, category: "unhealthy", pm25: 88.2 }],
  "geo.geocode": [{ address: "Karl Johans gate 1, Oslo" }, { lat: 59.9111, lon: 10.7503, formatted: "Karl Johans gate 1, 0154 Oslo, Norway" }],
  "geo.reverse_geocode": [{ lat: 48.8584, lon: 2.2945 }, { formatted: "Champ de Mars, 75007 Paris, France", country: "FR" }],
  "geo.ip_lookup": [{ ip: "8.8.8.8" }, { country: "US", city: "Mountain View", asn: 15169, org: "Google LLC" }],
  "geo.timezone": [{ lat: 35.68, lon: 139.69 }, { timezone: "Asia/Tokyo", utc_offset: "+09:00" }],
  "geo.elevation": [{ lat: 46.5586, lon: 7.8287 }, { elevation_m: 3466 }],
  "maps.directions": [{ origin: "Berlin Hbf", destination: "Potsdam", mode: "driving" }, { distance_km: 35.2, duration_min: 41, steps: 14 }],
  "maps.distance_matrix": [{ origins: ["Madrid"], destinations: ["Valencia", "Seville"] }, { rows: [{ elements: [{ distance_km: 356 }, { distance_km: 531 }] }] }],
  "maps.places_search": [{ query: "coffee", near: "Shoreditch, London" }, { places: [{ name: "Ozone Coffee", rating: 4.6, lat: 51.5262, lon: -0.0823 }] }],
  "maps.static_map": [{ center: "Amsterdam", zoom: 13, size: "600x400" }, { image_url: "https://maps.example/static/abc123.png" }],
  "search.web": [{ q: "x402 payment protocol" }, { results: [{ title: "x402", url: "https://x402.org", snippet: "An open payment standard" }] }],
  "search.news": [{ q: "central bank rates", since: "2026-01-01" }, { articles: [{ title: "Rates held", source: "Reuters", published_at: "2026-01-02T09:00:00Z" }] }],
  "search.images": [{ q: "northern lights" }, { images: [{ url: "https://img.example/aurora.jpg", width: 1920, height: 1080 }] }],
  "search.academic": [{ q: "transformer attention", year_from: 2020 }, { papers: [{ title: "Efficient attention", doi: "10.1000/xyz123", citations: 412 }] }],
  "search.patents": [{ q: "solid-state battery electrolyte" }, { patents: [{ number: "US11450000B2", title: "Solid electrolyte", assignee: "Acme" }] }],
  "web.scrape": [{ url: "https://example.com" }, { status: 200, html: "<!doctype html><title>Example Domain</title>" }],
  "web.screenshot": [{ url: "https://example.com", width: 1280 }, { image_url: "https://shots.example/7f3a.png" }],
  "web.crawl": [{ url: "https://docs.example.com", max_pages: 20 }, { pages: 20, urls: ["https://docs.example.com/start"] }],
  "web.extract_article": [{ url: "https://blog.example.com/post" }, { title: "A post", byline: "Ada", text: "The article's text..." }],
  "web.pdf_render": [{ url: "https://example.com/invoice/42" }, { pdf_url: "https://render.example/42.pdf", pages: 2 }],
  "llm.chat": [{ model: "default", messages: [{ role: "user", content: "Say hello" }] }, { message: { role: "assistant", content: "Hello!" }, tokens: 9 }],
  "llm.embed": [{ input: "Capdex finds callable APIs" }, { embedding: [0.013, -0.027, 0.118], dimensions: 3 }],
  "llm.summarize": [{ text: "A long report about quarterly results...", max_words: 50 }, { summary: "Revenue grew 12% on strong demand." }],
  "llm.classify": [{ text: "My card was charged twice", labels: ["billing", "shipping", "other"] }, { label: "billing", confidence: 0.94 }],
  "llm.extract_structured": [{ text: "Meet Ana at 3pm Friday", schema: { type: "object" } }, { data: { person: "Ana", time: "15:00", day: "Friday" } }],
  "llm.moderate": [{ text: "Have a nice day" }, { flagged: false, categories: {} }],
  "image.generate": [{ prompt: "a lighthouse at dusk, watercolour", size: "1024x1024" }, { image_url: "https://img.example/gen/91ab.png" }],
  "image.edit": [{ image_url: "https://img.example/in.png", instruction: "make the sky orange" }, { image_url: "https://img.example/out.png" }],
  "image.upscale": [{ image_url: "https://img.example/small.png", scale: 4 }, { image_url: "https://img.example/large.png", width: 2048 }],
  "image.remove_background": [{ image_url: "https://img.example/product.jpg" }, { image_url: "https://img.example/product-cutout.png" }],
  "image.caption": [{ image_url: "https://img.example/dog.jpg" }, { caption: "A brown dog running on a beach" }],
  "image.ocr": [{ image_url: "https://img.example/receipt.jpg" }, { text: "TOTAL 12.40 EUR", confidence: 0.97 }],
  "image.detect_objects": [{ image_url: "https://img.example/street.jpg" }, { objects: [{ label: "car", score: 0.93, box: [12, 40, 220, 180] }] }],
  "audio.transcribe": [{ audio_url: "https://audio.example/call.mp3", language: "en" }, { text: "Hello, thanks for calling.", duration_s: 42.5 }],
  "audio.tts": [{ text: "Your order has shipped", voice: "alloy" }, { audio_url: "https://audio.example/tts/5e1.mp3" }],
  "audio.music_generate": [{ prompt: "calm lo-fi beat", seconds: 30 }, { audio_url: "https://audio.example/music/77.mp3" }],
  "audio.voice_clone": [{ sample_url: "https://audio.example/sample.wav", text: "Good morning" }, { audio_url: "https://audio.example/clone/3.mp3" }],
  "video.generate": [{ prompt: "a paper boat on a river", seconds: 5 }, { video_url: "https://video.example/gen/12.mp4", status: "done" }],
  "video.transcode": [{ video_url: "https://video.example/in.mov", format: "mp4" }, { video_url: "https://video.example/out.mp4" }],
  "video.summarize": [{ video_url: "https://video.example/talk.mp4" }, { summary: "A talk on agent payments.", chapters: 4 }],
  "translate.text": [{ text: "Good morning", target: "fr" }, { translation: "Bonjour", source: "en" }],
  "translate.document": [{ document_url: "https://files.example/contract.docx", target: "de" }, { document_url: "https://files.example/contract.de.docx" }],
  "translate.detect_language": [{ text: "Hvor er toget?" }, { language: "no", confidence: 0.98 }],
  "finance.stock_quote": [{ symbol: "AAPL" }, { symbol: "AAPL", price: 231.4, currency: "USD", change_pct: 0.8 }],
  "finance.stock_history": [{ symbol: "MSFT", from: "2025-12-01", to: "2025-12-31" }, { bars: [{ date: "2025-12-01", close: 412.3 }] }],
  "finance.fx_rate": [{ base: "EUR", quote: "NOK" }, { base: "EUR", quote: "NOK", rate: 11.72 }],
  "finance.company_fundamentals": [{ symbol: "NVDA" }, { revenue_usd: 130500000000, pe_ratio: 52.1, market_cap_usd: 3300000000000 }],
  "finance.market_news": [{ symbol: "TSLA" }, { articles: [{ title: "Deliveries beat", published_at: "2026-01-02T13:00:00Z" }] }],
  "crypto.price": [{ symbol: "ETH", currency: "USD" }, { symbol: "ETH", price: 3412.55, currency: "USD" }],
  "crypto.wallet_balance": [{ address: "0x1111111111111111111111111111111111111111", network: "base" }, { balances: [{ asset: "USDC", amount: "125.50" }] }],
  "crypto.tx_history": [{ address: "0x1111111111111111111111111111111111111111", limit: 10 }, { transactions: [{ hash: "0xabc", value: "0.5", asset: "ETH" }] }],
  "crypto.token_metadata": [{ address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", network: "base" }, { symbol: "USDC", decimals: 6, name: "USD Coin" }],
  "crypto.gas_price": [{ network: "ethereum" }, { base_fee_gwei: 12.4, priority_fee_gwei: 1.5 }],
  "crypto.swap_quote": [{ from: "ETH", to: "USDC", amount: "1", network: "base" }, { amount_out: "3405.12", route: ["ETH", "USDC"] }],
  "data.company_lookup": [{ domain: "stripe.com" }, { name: "Stripe", employees: 8000, industry: "Payments" }],
  "data.person_enrich": [{ email: "ada@example.com" }, { name: "Ada Lovelace", title: "Engineer", company: "Example" }],
  "data.email_finder": [{ first_name: "Ada", last_name: "Lovelace", domain: "example.com" }, { email: "ada@example.com", confidence: 0.91 }],
  "data.domain_whois": [{ domain: "example.com" }, { registrar: "RESERVED-IANA", created: "1995-08-14" }],
  "data.vat_validate": [{ vat_number: "NO923609016MVA" }, { valid: true, name: "Equinor ASA", country: "NO" }],
  "email.send": [{ to: "ops@example.com", subject: "Hello", text: "It works" }, { message_id: "msg_01h", status: "queued" }],
  "email.verify": [{ email: "ada@example.com" }, { deliverable: true, mx_found: true, disposable: false }],
  "email.parse_inbound": [{ raw: "From: ada@example.com\nSubject: Hi\n\nHello" }, { from: "ada@example.com", subject: "Hi", text: "Hello" }],
  "phone.sms_send": [{ to: "+4712345678", text: "Your code is 4821" }, { message_id: "sms_9f2", status: "sent" }],
  "phone.lookup": [{ number: "+14155550100" }, { valid: true, country: "US", line_type: "mobile", carrier: "Example Wireless" }],
  "phone.call": [{ to: "+14155550100", say: "Your table is ready" }, { call_id: "call_51", status: "ringing" }],
  "docs.pdf_extract": [{ pdf_url: "https://files.example/report.pdf" }, { text: "Annual report 2025...", pages: 48 }],
  "docs.convert": [{ document_url: "https://files.example/memo.docx", to: "pdf" }, { document_url: "https://files.example/memo.pdf" }],
  "docs.invoice_parse": [{ document_url: "https://files.example/invoice.pdf" }, { vendor: "Acme AS", total: 1250, currency: "NOK", due: "2026-02-01" }],
  "docs.esign": [{ document_url: "https://files.example/nda.pdf", signer_email: "ada@example.com" }, { envelope_id: "env_77", status: "sent" }],
  "code.execute": [{ language: "python", code: "print(2 + 2)" }, { stdout: "4\n", exit_code: 0 }],
  "code.review": [{ diff: "- let x = 1\n+ const x = 1" }, { comments: [{ line: 1, text: "Good: const for a value never reassigned." }] }],
  "code.repo_search": [{ q: "rate limiter lua", language: "typescript" }, { results: [{ repo: "acme/limits", path: "src/redis.ts", score: 0.82 }] }],
  "security.url_scan": [{ url: "https://login-example.test/verify" }, { malicious: true, categories: ["phishing"] }],
  "security.ip_reputation": [{ ip: "203.0.113.9" }, { score: 87, listed: ["spamhaus"], abuse_reports: 14 }],
  "security.breach_check": [{ email: "ada@example.com" }, { breached: true, breaches: ["ExampleForum 2021"] }],
  "security.vuln_lookup": [{ cve: "CVE-2021-44228" }, { cve: "CVE-2021-44228", cvss: 10, summary: "Log4Shell" }],
  "commerce.product_search": [{ q: "usb-c charger 65w" }, { products: [{ title: "65W GaN charger", price: 39.9, currency: "EUR" }] }],
  "commerce.price_history": [{ product_url: "https://shop.example/p/123" }, { prices: [{ date: "2025-12-01", price: 44.9 }, { date: "2026-01-01", price: 39.9 }] }],
  "commerce.shipping_rates": [{ from_postcode: "0150", to_postcode: "5003", weight_kg: 2 }, { rates: [{ carrier: "Posten", price: 129, currency: "NOK", days: 2 }] }],
  "commerce.package_tracking": [{ tracking_number: "1Z999AA10123456784" }, { status: "in_transit", last_location: "Oslo", eta: "2026-01-04" }],
  "travel.flight_search": [{ from: "OSL", to: "LIS", date: "2026-03-14" }, { offers: [{ carrier: "TP", price: 189, currency: "EUR", stops: 0 }] }],
  "travel.flight_status": [{ flight: "SK4035", date: "2026-01-02" }, { status: "delayed", departure_delay_min: 25, gate: "D7" }],
  "travel.hotel_search": [{ city: "Lisbon", check_in: "2026-03-14", nights: 3 }, { hotels: [{ name: "Casa Alfama", price_per_night: 112, rating: 8.9 }] }],
  "sports.scores": [{ league: "premier-league", date: "2026-01-01" }, { games: [{ home: "Arsenal", away: "Chelsea", score: "2-1", status: "final" }] }],
  "sports.fixtures": [{ team: "Rosenborg" }, { fixtures: [{ opponent: "Molde", date: "2026-04-05", home: true }] }],
  "sports.odds": [{ event_id: "evt_123" }, { bookmakers: [{ name: "Example Bet", home: 1.85, draw: 3.6, away: 4.2 }] }],
  "social.profile_lookup": [{ handle: "@capdex" }, { name: "Capdex", followers: 1280, verified: false }],
  "social.post_search": [{ q: "x402", limit: 20 }, { posts: [{ author: "@builder", text: "paid my first API call with x402", likes: 42 }] }],
  "compliance.sanctions_screen": [{ name: "Ivan Petrov", country: "RU" }, { matches: [{ list: "OFAC SDN", score: 0.62 }], hit: false }],
  "compliance.id_verify": [{ document_image_url: "https://files.example/passport.jpg", selfie_url: "https://files.example/selfie.jpg" }, { verified: true, document_type: "passport" }],
  "storage.ipfs_pin": [{ content_url: "https://files.example/data.json" }, { cid: "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi" }],
  "storage.file_host": [{ filename: "report.pdf", content_base64: "JVBERi0xLjQK" }, { url: "https://files.example/f/report.pdf", expires_at: "2026-02-01T00:00:00Z" }],
  "util.qr_code": [{ data: "https://capdex.example", size: 256 }, { image_url: "https://qr.example/abc.png" }],
  "util.url_shorten": [{ url: "https://capdex.example/capabilities/weather.forecast" }, { short_url: "https://sho.rt/Xy3" }],
  "util.holidays": [{ country: "NO", year: 2026 }, { holidays: [{ date: "2026-05-17", name: "Constitution Day" }] }],
  "util.random": [{ min: 1, max: 6, count: 2 }, { numbers: [3, 5] }],
};

/** Share of demo endpoints that declare how to call them. */
const DECLARING_SHARE = 0.8;

function schemaOf(value: unknown): Obj {
  if (Array.isArray(value)) return { type: "array", items: value.length ? schemaOf(value[0]) : {} };
  if (value === null) return { type: "null" };
  if (typeof value === "object") {
    const props = Object.fromEntries(Object.entries(value as Obj).map(([k, v]) => [k, schemaOf(v)]));
    return { type: "object", properties: props, required: Object.keys(props) };
  }
  return { type: typeof value === "number" ? (Number.isInteger(value) ? "integer" : "number") : typeof value };
}

const built = new Map<string, { call: EndpointCallValue; declaration: Obj } | null>();

/** The call and bazaar declaration of a demo endpoint, or nulls when it declares nothing. */
export function demoCallOf(
  endpointId: string,
  capabilityId: string,
  method: string,
  opts: { validate?: boolean } = { validate: false },
): { call: EndpointCallValue | null; declaration: Obj | null } {
  const h = createHash("sha256").update(`call:${endpointId}`).digest();
  const example = CALLS[capabilityId] ?? genericCall(capabilityId);
  if (!example || h[0] / 256 >= DECLARING_SHARE) return { call: null, declaration: null };
  const key = `${capabilityId} ${method} ${opts.validate !== false}`;
  if (!built.has(key)) {
    const [input, output] = example;
    const kind = method === "GET" || method === "DELETE" ? "query" : "body";
    // Query parameters are strings on the wire: the declaration says so, and the example agrees.
    const inputExample = kind === "query" ? Object.fromEntries(Object.entries(input).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])) : input;
    const checked = declarationOfSubmitted(
      { input: { kind, schema: schemaOf(inputExample), example: inputExample, ...(kind === "body" ? { body_type: "json" as const } : {}) }, output: { type: "json", example: output } },
      method,
      opts,
    );
    // A fixed time, so the seed is the same on every machine.
    built.set(key, checked.ok ? { call: { source: "declared", ...checked.call, updated_at: "2026-01-01T00:00:00.000Z" } as EndpointCallValue, declaration: checked.declaration as Obj } : null);
  }
  const made = built.get(key);
  return made ? { call: made.call, declaration: made.declaration } : { call: null, declaration: null };
}

/** The input a seller in each category typically takes, for capabilities without an example of their own above. */
const CATEGORY_INPUTS: Record<string, Obj> = {
  onchain: { chain: "base", address: "0x4200000000000000000000000000000000000006" },
  defi: { chain: "base", protocol: "aave-v3" },
  nft: { chain: "ethereum", collection: "0xbc4ca0eda7647a8ab7c2061c2e118a18a936f13d" },
  trading: { symbol: "ETH-USD", interval: "1h" },
  crypto: { symbol: "ETH" },
  prediction: { market: "will-it-rain-in-oslo-tomorrow" },
  finance: { symbol: "AAPL" },
  gov: { country: "US", query: "population" },
  social: { handle: "capdex" },
  agents: { task: "Summarise the week's x402 news" },
  research: { topic: "x402 adoption" },
  academic: { query: "payment protocols", year_from: 2020 },
  devtools: { repo: "capdex/capdex" },
  network: { domain: "example.com" },
};

/** A plausible call for a capability the table above has no example for: its category's input, a result naming it. */
function genericCall(capabilityId: string): [Obj, Obj] {
  const category = capabilityId.split(".")[0];
  return [CATEGORY_INPUTS[category] ?? { query: capabilityId.split(".")[1].replace(/_/g, " ") }, { capability: capabilityId, result: { status: "ok", items: 3 } }];
}

/** Capabilities with a demo call: every catalogue capability (a hand-written example, else its category's). */
export const DEMO_CALL_CAPABILITIES = [...new Set([...Object.keys(CALLS), ...CATALOGUE.capabilities.map((c) => c.id)])];
