// The external builder-score provider. Pluggable: anything with `fetchScore`. The HTTP provider
// calls GET <BUILDER_SCORE_URL>/<address> and expects { score } (0..100). With none configured,
// nobody gets a score (and so no bonus).
import { AppError } from "../../lib/errors.ts";

export interface BuilderScoreProvider {
  readonly name: string;
  /** The score 0..100, or null when the provider knows nothing of this address. */
  fetchScore(address: string): Promise<number | null>;
}

export function httpBuilderScoreProvider(baseUrl: string, opts: { timeoutMs?: number } = {}): BuilderScoreProvider {
  const base = baseUrl.replace(/\/+$/, "");
  return {
    name: `http:${base}`,
    async fetchScore(address) {
      let res: Response;
      try {
        res = await fetch(`${base}/${address.toLowerCase()}`, {
          headers: { accept: "application/json" },
          signal: AbortSignal.timeout(opts.timeoutMs ?? 5_000),
        });
      } catch {
        throw new AppError("BUILDER_SCORE_UNAVAILABLE", "The builder-score provider is unreachable");
      }
      if (res.status === 404) return null;
      if (!res.ok) throw new AppError("BUILDER_SCORE_UNAVAILABLE", `The builder-score provider answered ${res.status}`);
      const body = (await res.json().catch(() => null)) as { score?: unknown } | null;
      const score = typeof body?.score === "number" ? body.score : Number.NaN;
      if (!Number.isFinite(score) || score < 0) {
        throw new AppError("BUILDER_SCORE_UNAVAILABLE", "The builder-score provider sent no valid score");
      }
      // The registry stores a uint8 0..100: clamp and round down.
      return Math.min(100, Math.floor(score));
    },
  };
}

/** From the environment: the HTTP provider when BUILDER_SCORE_URL is set, else none. */
export function builderScoreProviderFromEnv(url: string | undefined): BuilderScoreProvider | null {
  return url ? httpBuilderScoreProvider(url) : null;
}
