// The dashboard's edit form -> a PATCH of lib/schemas/provider.ts, with only what changed. The same
// schema as the API checks it, so the form and the API refuse the same things with the same words.
import type { Endpoint } from "@/lib/db/schema";
import { providerEndpointPatchSchema, type ProviderEndpointPatch } from "@/lib/schemas/provider";
import { buildSchema, rowsOfForm } from "./schema-builder";

export type FormPatch = { ok: true; patch: ProviderEndpointPatch | null } | { ok: false; error: string; pointer: string };

type CallLike = { source?: string; input?: Record<string, unknown>; output?: Record<string, unknown> } | null;

/** The part of a stored call a provider submits (what the form edits), in a stable key order. */
export function submittedPart(call: CallLike): Record<string, unknown> | null {
  if (!call?.input) return null;
  const pick = (o: Record<string, unknown> | undefined, keys: string[]) =>
    o ? Object.fromEntries(keys.filter((k) => o[k] !== undefined).map((k) => [k, o[k]])) : undefined;
  const input = pick(call.input, ["kind", "schema", "example", "body_type"]);
  const output = pick(call.output, ["type", "example", "schema"]);
  return { input, ...(output && Object.keys(output).length ? { output } : {}) };
}

const stable = (v: unknown): string => JSON.stringify(v, (_k, x) => (x && typeof x === "object" && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => a.localeCompare(b))) : x));

function fail(error: string, pointer: string): FormPatch {
  return { ok: false, error, pointer };
}

function readCall(form: FormData): { ok: true; call: unknown } | { ok: false; error: string; pointer: string } | null {
  const mode = String(form.get("call_mode") ?? "keep");
  if (mode === "keep") return null;
  if (mode === "none") return { ok: true, call: null };
  if (mode === "raw") {
    const text = String(form.get("call_raw") ?? "").trim();
    if (!text) return { ok: true, call: null };
    try {
      return { ok: true, call: JSON.parse(text) };
    } catch {
      return { ok: false, error: "The call is not valid JSON.", pointer: "#/call" };
    }
  }
  const built = buildSchema(rowsOfForm(form));
  if (!built.ok) {
    const e = built.errors[0];
    return { ok: false, error: `Field ${e.row + 1}, ${e.field}: ${e.detail}`, pointer: `#/call/fields/${e.row}/${e.field}` };
  }
  const kind = String(form.get("input_kind") ?? "query");
  const input: Record<string, unknown> = { kind, schema: built.built.schema, example: built.built.example };
  if (kind === "body") input.body_type = "json";
  const outputType = String(form.get("output_type") ?? "").trim();
  const outputExample = String(form.get("output_example") ?? "").trim();
  let output: Record<string, unknown> | undefined;
  if (outputType || outputExample) {
    output = { type: outputType || "json" };
    if (outputExample) {
      try {
        output.example = JSON.parse(outputExample);
      } catch {
        return { ok: false, error: "The example answer is not valid JSON.", pointer: "#/call/output/example" };
      }
    }
  }
  return { ok: true, call: { input, ...(output ? { output } : {}) } };
}

export function patchOfForm(form: FormData, current: Endpoint): FormPatch {
  const raw: Record<string, unknown> = {};
  const priceText = String(form.get("price_per_call") ?? "").trim();
  if (priceText) {
    const price = Number(priceText);
    if (!Number.isFinite(price)) return fail("The price must be a number (USD per call).", "#/price_per_call");
    if (price !== current.pricePerCall) raw.price_per_call = price;
  }
  const primary = String(form.get("network") ?? "").trim();
  const others = form.getAll("networks").map(String);
  const networks = [...new Set([primary, ...others].filter(Boolean))];
  const currentNetworks = current.networks.length ? current.networks : [current.network];
  if (networks.length && stable(networks) !== stable(currentNetworks)) raw.networks = networks;
  const assets = String(form.get("accepted_assets") ?? "")
    .split(/[\s,]+/)
    .filter(Boolean);
  if (assets.length && stable(assets) !== stable(current.acceptedAssets)) raw.accepted_assets = assets;
  const method = String(form.get("method") ?? "").trim();
  if (method && method !== current.method) raw.method = method;
  const description = form.get("description");
  if (description !== null && String(description) !== current.description) raw.description = String(description);
  const call = readCall(form);
  if (call && !call.ok) return fail(call.error, call.pointer);
  if (call?.ok) {
    const before = submittedPart(current.call as CallLike);
    if (stable(call.call) !== stable(before)) raw.call = call.call;
    // A new method with the call on record: send the call again so both change together.
    else if (raw.method && call.call) raw.call = call.call;
  }
  if (!Object.keys(raw).length) return { ok: true, patch: null };
  const parsed = providerEndpointPatchSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail(issue.message, `#/${issue.path.map(String).join("/")}`);
  }
  return { ok: true, patch: parsed.data };
}
