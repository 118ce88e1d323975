// Which weights a discover request ranks with: a named preset, or custom weights normalised to sum 1.
import { RANKING_PRESETS, type DiscoverBody, type RankingPreset } from "@/lib/schemas/discover";
import { ApiError } from "@/lib/http/errors";
import { round4, type Weights } from "./scoring";

export type RankingChoice = { preset: RankingPreset | "custom"; weights: Weights };

export const DEFAULT_RANKING: RankingChoice = { preset: "default", weights: { ...RANKING_PRESETS.default } };

export function chooseWeights(preferences: DiscoverBody["preferences"]): RankingChoice {
  const custom = preferences?.weights;
  if (!custom) {
    const preset = preferences?.ranking_preset ?? "default";
    return { preset, weights: { ...RANKING_PRESETS[preset] } };
  }
  const raw = {
    success: custom.success ?? 0,
    latency: custom.latency ?? 0,
    price: custom.price ?? 0,
    stability: custom.stability ?? 0,
  };
  const sum = raw.success + raw.latency + raw.price + raw.stability;
  // The schema refuses all-zero weights; this guards callers that skip it.
  if (!(sum > 0) || Object.values(raw).some((v) => !(v >= 0))) {
    throw new ApiError("validation_failed", "preferences/weights: at least one weight must be above 0, none below.", {
      errors: [{ pointer: "#/preferences/weights", detail: "At least one weight must be above 0, none below." }],
    });
  }
  return {
    preset: "custom",
    weights: {
      success: round4(raw.success / sum),
      latency: round4(raw.latency / sum),
      price: round4(raw.price / sum),
      stability: round4(raw.stability / sum),
    },
  };
}
