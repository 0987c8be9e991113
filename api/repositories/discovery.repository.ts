// The discovery area's reads and writes, one repository per job: the map when the feed index does not
// answer it (discovery-map.repository.ts), full-text search (discovery-search.repository.ts) and the
// reader's side (discovery-reader.repository.ts), over the read model api.discovery_missions (one row
// per mission, see discovery-read-model.repository.ts). The feed ranked in SQL and what the feed index
// reads have their own (discovery-feed.repository.ts, discovery-feed-source.repository.ts).
import type pg from "pg";
import { discoveryMapRepository } from "./discovery-map.repository.ts";
import { discoveryReaderRepository } from "./discovery-reader.repository.ts";
import { discoverySearchRepository } from "./discovery-search.repository.ts";

/**
 * What a new connection plans before its first discovery request (db/client.ts prefill()): each
 * relation the map, the feed and search read, with all its indexes (planning loads them), and the
 * English text-search dictionary.
 */
export function discoveryWarmStatements(chainSchema: string): string[] {
  const s = `"${chainSchema}"`;
  return [
    `EXPLAIN SELECT * FROM api.discovery_missions dm WHERE dm.id = '' AND dm.search_vector @@ websearch_to_tsquery('english', 'warm')`,
    `EXPLAIN SELECT * FROM api.discovery_search ds WHERE ds.id = '' AND ds.search_vector @@ websearch_to_tsquery('english', 'warm')`,
    `EXPLAIN SELECT * FROM api.discovery_totals WHERE category_key = ''`,
    `EXPLAIN SELECT * FROM api.discovery_removed WHERE seq > 0`,
    `EXPLAIN SELECT * FROM api.discovery_events WHERE user_id = ''`,
    `EXPLAIN SELECT * FROM api.users WHERE evm_address = ''`,
    `EXPLAIN SELECT * FROM ${s}.user_stats WHERE address = ''`,
    `EXPLAIN SELECT * FROM ${s}.guild_members WHERE account = ''`,
    `EXPLAIN SELECT * FROM ${s}.guilds WHERE id = ''`,
    `EXPLAIN SELECT * FROM ${s}.ratings WHERE rater = ''`,
  ];
}

export function discoveryRepository(pool: pg.Pool, chainSchema: string) {
  return { ...discoveryMapRepository(pool), ...discoverySearchRepository(pool), ...discoveryReaderRepository(pool, chainSchema) };
}
export type DiscoveryRepository = ReturnType<typeof discoveryRepository>;
