// postinstall: two fixes to postgres.js 3.4.9's write scheduler (src/connection.js), both met when
// Postgres restarts under load (the fleet test does it). Small writes wait for a setImmediate
// (nextWriteTimer) and collect in `chunk`:
// 1. A write on a connection that has already closed (the ROLLBACK postgres.js sends when a
//    transaction's connection dies) ran socket.write on null in that immediate: an uncaught
//    TypeError that ended the process. nextWrite now rejects the connection's queries with
//    CONNECTION_CLOSED instead (porsager/postgres#1066, #1154, #1208; proposed upstream in #1209).
// 2. closed() and terminate() cancel the immediate but leave nextWriteTimer set (and `chunk` full),
//    so once the connection reconnects no small write is ever flushed again: every query on it
//    hangs. They now reset both.
// Neither fix is released (3.4.9 is the latest). A file that no longer has the old code (a fixed
// release) is left alone; files are replaced by rename, so a node_modules hard-linked from
// elsewhere is not changed under its other owners.
import fs from "node:fs";
import path from "node:path";

const MARK = "// capdex: patched (scripts/patch-postgres.mjs)";
const FIXES = [
  [
    "  function nextWrite(fn) {\n    const x = socket.write(chunk, fn)\n",
    "  function nextWrite(fn) {\n" +
      `    if (socket === null) { ${MARK}\n` +
      "      nextWriteTimer !== null && clearImmediate(nextWriteTimer)\n" +
      "      chunk = nextWriteTimer = null\n" +
      "      error(Errors.connection('CONNECTION_CLOSED', options))\n" +
      "      return false\n" +
      "    }\n" +
      "    const x = socket.write(chunk, fn)\n",
  ],
  ["    clearImmediate(nextWriteTimer)\n    if (socket) {\n", `    clearImmediate(nextWriteTimer) ${MARK}\n    chunk = nextWriteTimer = null\n    if (socket) {\n`],
  [
    "    clearImmediate(nextWriteTimer)\n    socket.removeListener('data', data)\n",
    `    clearImmediate(nextWriteTimer) ${MARK}\n    chunk = nextWriteTimer = null\n    socket.removeListener('data', data)\n`,
  ],
];

const root = path.join(process.cwd(), "node_modules", "postgres");
for (const dir of ["src", "cjs/src", "cf/src"]) {
  const file = path.join(root, dir, "connection.js");
  if (!fs.existsSync(file)) continue;
  let text = fs.readFileSync(file, "utf8");
  let applied = 0;
  for (const [from, to] of FIXES) {
    if (!text.includes(from)) continue;
    text = text.replace(from, to);
    applied++;
  }
  const name = path.relative(process.cwd(), file);
  if (!applied) {
    if (!text.includes(MARK)) console.log(`patch-postgres: ${name} has none of the old code; left as it is`);
    continue;
  }
  const tmp = `${file}.capdex-tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
  console.log(`patch-postgres: ${applied} fix(es) applied to ${name}`);
}
