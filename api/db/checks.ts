// The chain's vocabulary in SQL, generated from the one list of each enum (domain/states.ts): the CHECK
// constraints of the API's columns that hold a chain state, and the literals that SQL built in
// TypeScript compares a state with. A state added to a list changes the CHECK, so `npm run db:generate`
// writes the migration (test/unit/db-migrations-drift.test.ts fails until it does). Migrations keep
// their literals (a partial index's predicate is SQL text): test/e2e/state-checks.test.ts reads the
// database's constraints back against the lists.
import { type SQL, sql } from "drizzle-orm";
import { MISSION_STATES, type MissionState } from "../../domain/states.ts";

/** A name of one of the domain's lists as an SQL string literal. The names are identifiers; anything else is refused. */
export function nameLiteral(name: string): string {
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) throw new Error(`not an enum name: ${JSON.stringify(name)}`);
  return `'${name}'`;
}

/** A mission state as an SQL literal, checked against MISSION_STATES when compiled: `dm.state = ${missionStateSql("Open")}`. */
export const missionStateSql = (state: MissionState): string => nameLiteral(state);

/** `"column" IN ('A', 'B', ...)` over a list (raw SQL: drizzle-kit writes a CHECK's text as it is, without parameters). */
export function inList(column: string, list: readonly string[]): SQL {
  if (!/^[a-z_][a-z0-9_]*$/.test(column)) throw new Error(`not a column name: ${JSON.stringify(column)}`);
  return sql.raw(`"${column}" IN (${list.map(nameLiteral).join(", ")})`);
}

/** The CHECK of a column holding a mission state (`Missions.State`'s names). */
export const missionStateCheck = (column: string): SQL => inList(column, MISSION_STATES);
