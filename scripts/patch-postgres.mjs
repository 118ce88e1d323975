// postinstall: guards postgres.js 3.4.9's nextWrite() against a closed socket. Its small writes
// wait for a setImmediate; a write on a connection that has already closed (the ROLLBACK that
// postgres.js sends when a transaction's connection dies, e.g. Postgres restarting under the
// rollup job) then runs socket.write on null in that immediate, an uncaught TypeError that ends the
// process. Upstream: porsager/postgres#1066, #1154, #1208 (fix proposed in #1209, not released).
// The guard settles the write's queries with CONNECTION_CLOSED instead, as the fix does. It skips
// a file that no longer has the old code (a fixed release), and replaces files by rename, so a
// node_modules hard-linked from elsewhere is not changed under its other owners.
import fs from "node:fs";
import path from "node:path";

const OLD = "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)\n";
const NEW =
  "  function nextWrite(fn) {\n" +
  "    if (socket === null) { // capdex: guard (scripts/patch-postgres.mjs)\n" +
  "      nextWriteTimer !== null && clearImmediate(nextWriteTimer)\n" +
  "      chunk = nextWriteTimer = null\n" +
  "      error(Errors.connection('CONNECTION_CLOSED', options))\n" +
  "      return false\n" +
  "    }\n" +
  "    const x = socket.write(chunk, fn)\n";

const root = path.join(process.cwd(), "node_modules", "postgres");
for (const dir of ["src", "cjs/src", "cf/src"]) {
  const file = path.join(root, dir, "connection.js");
  if (!fs.existsSync(file)) continue;
  const text = fs.readFileSync(file, "utf8");
  if (text.includes("capdex: guard")) continue;
  if (!text.includes(OLD)) {
    console.log(`patch-postgres: ${path.relative(process.cwd(), file)} has no unguarded nextWrite; left as it is`);
    continue;
  }
  const tmp = `${file}.capdex-tmp`;
  fs.writeFileSync(tmp, text.replace(OLD, NEW));
  fs.renameSync(tmp, file);
  console.log(`patch-postgres: guarded nextWrite in ${path.relative(process.cwd(), file)}`);
}
