// A worker thread of pool.ts: runs each world it is sent and posts back the result.
import { parentPort } from "node:worker_threads";
import { runWorld, type WorldConfig } from "./world";

parentPort!.on("message", (config: WorldConfig) => {
  void runWorld(config).then((result) => parentPort!.postMessage(result));
});
