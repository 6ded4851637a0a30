/**
 * The cloud's tables, as Kysely sees them. Each service declares its own table interfaces in its folder and
 * they are merged here, so queries are typed end to end.
 */
// biome-ignore lint/complexity/noBannedTypes: services add their tables to this map
export type CloudSchema = {};
