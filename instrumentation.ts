// Runs once when the Node server starts: open (migrate, seed) the database before the first request,
// and start background work unless CAPDEX_WORKER=off.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { assertSupportedRuntime } = await import("./lib/server/runtime");
  const { logger } = await import("./lib/log");
  logger().info({ node: assertSupportedRuntime(), role: "server" }, "starting");
  const { startServer } = await import("./lib/server/start");
  await startServer();
}
