// Runs simulated worlds, each independent of the others: in this process, or on worker threads
// (the full evaluation's 18 worlds take a few minutes on one core each).
import { Worker } from "node:worker_threads";
import { runWorld, type WorldConfig, type WorldResult } from "./world";

export async function runWorlds(configs: WorldConfig[], jobs: number, onDone: (w: WorldResult) => void = () => {}): Promise<WorldResult[]> {
  const results: WorldResult[] = new Array(configs.length);
  if (jobs <= 1) {
    for (const [i, c] of configs.entries()) onDone((results[i] = await runWorld(c)));
    return results;
  }
  let next = 0;
  const lane = async () => {
    // tsx compiles the worker's TypeScript as it does this process's.
    const worker = new Worker(new URL("./world-worker.ts", import.meta.url), { execArgv: ["--import", "tsx"] });
    try {
      while (next < configs.length) {
        const i = next++;
        results[i] = await new Promise<WorldResult>((resolve, reject) => {
          worker.once("message", resolve);
          worker.once("error", reject);
          worker.postMessage(configs[i]);
        });
        worker.removeAllListeners("error");
        onDone(results[i]);
      }
    } finally {
      await worker.terminate();
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, configs.length) }, lane));
  return results;
}
