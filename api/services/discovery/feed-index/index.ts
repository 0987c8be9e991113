// The feed index: the open missions of the discovery read model in memory, for the feed's relevance
// order and the map. One file per job:
//   store.ts        the packed per-mission arrays, their layout in blocks and the writes (storage)
//   block-bounds.ts what each block can hold, for the ranking to skip whole blocks
//   group-table.ts  the map's grid squares and neighbourhood groups
//   heaps.ts        the bounded heaps and the block queue
//   rank.ts         the feed's relevance page
//   nearest.ts      the map's positions and nearest missions
//   sync.ts         loading, following the read model's changes, and the per-request round trip
export { createFeedIndex, type FeedIndex, type FeedIndexSource } from "./sync.ts";
export { FeedStore, type MapRow } from "./store.ts";
export { rank, type FeedIndexQuery, type IndexRanked } from "./rank.ts";
export { near, type NearQuery, type NearResult } from "./nearest.ts";
