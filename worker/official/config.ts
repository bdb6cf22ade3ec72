// The official sources' settings from the environment (env.ts parsed it once).
import type { Env } from '#server/env.ts';

export interface OfficialConfig {
  bls: { origin: string; apiKey?: string | undefined };
  mars: { origin: string; apiKey?: string | undefined };
  aphis: { url: string };
  timeoutMs?: number;
}

export function officialConfigFromEnv(env: Env): OfficialConfig {
  return {
    bls: { origin: env.BLS_API_ORIGIN, apiKey: env.BLS_API_KEY },
    mars: { origin: env.USDA_MARS_ORIGIN, apiKey: env.USDA_MARS_API_KEY },
    aphis: { url: env.APHIS_HPAI_URL },
  };
}
