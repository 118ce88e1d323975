import { describe, expect, it } from "vitest";
import { MIN_NODE_MAJOR, runtimeProblem } from "@/lib/server/runtime";

describe("supported runtime", () => {
  it("accepts Node 24 and newer", () => {
    expect(runtimeProblem("24.11.0")).toBeNull();
    expect(runtimeProblem("26.1.0")).toBeNull();
  });

  it("refuses Node 20 and 22 with a message that says how to run the project's Node", () => {
    for (const v of ["20.20.2", "22.12.0"]) {
      const problem = runtimeProblem(v);
      expect(problem).toContain(`Node ${v}`);
      expect(problem).toContain(`Node ${MIN_NODE_MAJOR}`);
      expect(problem).toContain("npm start");
    }
  });

  it("is the runtime these tests run on", () => {
    expect(Number(process.versions.node.split(".")[0])).toBeGreaterThanOrEqual(MIN_NODE_MAJOR);
  });
});
