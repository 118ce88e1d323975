// Reading an endpoint's `call` for people and language models: its parameters (from the JSON Schema,
// else the example), a ready curl with the example, and a one-line form for text summaries.
import type { EndpointCall } from "@/lib/schemas/call";

export type CallParameter = { name: string; type: string; required: boolean; description: string | null; example: unknown };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

const MAX_PARAMETERS = 50;

/** The parameters (query), fields (body) or arguments (MCP tool) of a call, required ones first. */
export function callParameters(call: EndpointCall): CallParameter[] {
  const schema = isObj(call.input.schema) ? call.input.schema : {};
  const props = isObj(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : []);
  const example = isObj(call.input.example) ? call.input.example : {};
  const names = [...new Set([...Object.keys(props), ...Object.keys(example)])].slice(0, MAX_PARAMETERS);
  const out = names.map((name) => {
    const p = isObj(props[name]) ? props[name] : {};
    return {
      name,
      type: typeOfSchema(p, example[name]),
      required: required.has(name),
      description: typeof p.description === "string" ? p.description.slice(0, 300) : null,
      example: example[name],
    };
  });
  return [...out.filter((p) => p.required), ...out.filter((p) => !p.required)];
}

function typeOfSchema(p: Obj, example: unknown): string {
  if (typeof p.type === "string") return p.type;
  if (Array.isArray(p.type)) return p.type.filter((t) => typeof t === "string").join(" | ");
  if (Array.isArray(p.enum)) return "enum";
  if (example === undefined) return "any";
  return Array.isArray(example) ? "array" : example === null ? "null" : typeof example;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The HTTP request a call's example makes: what curlForCall prints and what a paid test call sends. */
export type CallRequest =
  | { kind: "query"; method: string; url: string }
  | { kind: "json" | "text" | "mcp"; method: string; url: string; contentType: string; body: string }
  | { kind: "form"; method: string; url: string; fields: Array<[string, string]> };

/** The request that calls the endpoint with the example. */
export function requestForCall(url: string, call: EndpointCall): CallRequest {
  const example = call.input.example;
  if (call.input.kind === "mcp") {
    const body = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: call.input.tool ?? "", arguments: isObj(example) ? example : {} } };
    return { kind: "mcp", method: "POST", url, contentType: "application/json", body: JSON.stringify(body) };
  }
  if (call.input.kind === "body") {
    const type = call.input.body_type ?? "json";
    if (type === "json") return { kind: "json", method: call.method, url, contentType: "application/json", body: JSON.stringify(example ?? {}) };
    if (type === "form-data" && isObj(example)) {
      return { kind: "form", method: call.method, url, fields: Object.entries(example).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)]) };
    }
    return { kind: "text", method: call.method, url, contentType: "text/plain", body: typeof example === "string" ? example : JSON.stringify(example ?? "") };
  }
  return { kind: "query", method: call.method, url: withQuery(url, example) };
}

/** A curl that calls the endpoint with the example (the 402 it answers says how to pay). */
export function curlForCall(url: string, call: EndpointCall): string {
  const r = requestForCall(url, call);
  const target = shellQuote(r.url);
  switch (r.kind) {
    case "mcp":
      return `curl -s -X POST ${target} \\\n  -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \\\n  -d ${shellQuote(r.body)}`;
    case "json":
      return `curl -s -X ${r.method} ${target} \\\n  -H 'Content-Type: application/json' \\\n  -d ${shellQuote(r.body)}`;
    case "form": {
      const fields = r.fields.map(([k, v]) => `-F ${shellQuote(`${k}=${v}`)}`);
      return `curl -s -X ${r.method} ${target}${fields.length ? ` \\\n  ${fields.join(" ")}` : ""}`;
    }
    case "text":
      return `curl -s -X ${r.method} ${target} \\\n  -H 'Content-Type: text/plain' \\\n  --data-binary ${shellQuote(r.body)}`;
    case "query":
      return `curl -s${r.method === "GET" ? "" : ` -X ${r.method}`} ${target}`;
  }
}

/** The URL with the example's values as query parameters (added to any it already has). */
export function withQuery(url: string, example: unknown): string {
  if (!isObj(example) || !Object.keys(example).length) return url;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  for (const [k, v] of Object.entries(example)) u.searchParams.set(k, typeof v === "string" ? v : JSON.stringify(v));
  return u.toString();
}

/** "GET ?city=Oslo | params: city (string, required), units (string) | returns json, e.g. {...}" */
export function describeCallLine(call: EndpointCall): string {
  const params = callParameters(call);
  const list = params.map((p) => `${p.name} (${p.type}${p.required ? ", required" : ""})`).join(", ");
  const example = call.input.example === undefined ? "" : short(JSON.stringify(call.input.example), 160);
  let head: string;
  if (call.input.kind === "mcp") head = `MCP tool ${call.input.tool}${list ? ` with arguments ${list}` : ""}${example ? `, e.g. ${example}` : ""}`;
  else if (call.input.kind === "body") head = `${call.method} ${call.input.body_type ?? "json"} body${list ? ` with fields ${list}` : ""}${example ? `, e.g. ${example}` : ""}`;
  else head = `${call.method}${list ? ` with query parameters ${list}` : " without parameters"}${example && example !== "{}" ? `, e.g. ${example}` : ""}`;
  const out = call.output ? `; returns ${call.output.type}${call.output.example === undefined ? "" : `, e.g. ${short(JSON.stringify(call.output.example), 120)}`}` : "";
  return `call ${head}${out} (${call.source})`;
}

function short(s: string | undefined, n: number): string {
  if (!s) return "";
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}
