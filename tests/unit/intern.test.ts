import { describe, expect, it } from "vitest";
import { Interner } from "@/lib/discovery/intern";

describe("Interner (the candidate cache's shared copies)", () => {
  it("returns one copy of equal JSON values, subtrees shared, serialising as the originals did", () => {
    const intern = new Interner();
    const a = JSON.parse('{"accepts":[{"scheme":"exact","extra":{"name":"USD Coin","version":"2"}}],"n":1,"z":null}');
    const b = JSON.parse('{"accepts":[{"scheme":"exact","extra":{"name":"USD Coin","version":"2"}}],"n":1,"z":null}');
    const c = JSON.parse('{"other":{"name":"USD Coin","version":"2"}}');
    const ia = intern.json(a) as typeof a;
    const ib = intern.json(b) as typeof b;
    const ic = intern.json(c) as typeof c;
    expect(ib).toBe(ia);
    expect(ic.other).toBe(ia.accepts[0].extra);
    expect(JSON.stringify(ia)).toBe(JSON.stringify(a));
    expect(JSON.stringify(ic)).toBe(JSON.stringify(c));
    expect(Object.isFrozen(ia.accepts)).toBe(true);
  });

  it("tells apart values that differ only in key order, type or nesting", () => {
    const intern = new Interner();
    const values = [{ a: 1, b: 2 }, { b: 2, a: 1 }, { a: "1", b: 2 }, { a: [1], b: 2 }, [1, 2], [2, 1], ["1", 2], null, "x", 0, false];
    const out = values.map((v) => intern.json(v));
    for (let i = 0; i < values.length; i++) {
      expect(JSON.stringify(out[i])).toBe(JSON.stringify(values[i]));
      for (let j = 0; j < i; j++) if (typeof out[i] === "object" && out[i] !== null) expect(out[i]).not.toBe(out[j]);
    }
    expect(Object.keys(out[1] as object)).toEqual(["b", "a"]);
  });

  it("leaves out undefined properties as JSON does, and shares lists of strings", () => {
    const intern = new Interner();
    expect(JSON.stringify(intern.json({ a: undefined, b: 1 }))).toBe('{"b":1}');
    const l1 = intern.list(["base", "polygon"]);
    expect(intern.list(["base", "polygon"])).toBe(l1);
    expect(intern.list(["polygon", "base"])).not.toBe(l1);
    expect(new Interner().str("eip155:8453".slice(0))).toBe("eip155:8453");
  });
});
