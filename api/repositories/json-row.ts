// A select's fields as ONE column, for a hot read of many columns (GET /missions/:id, bench B1): PostgreSQL
// sends them as a JSON array (json_build_array) and each value is decoded by its own field's driver
// mapping (the column's mapFromDriverValue, an SQL field's decoder), as drizzle decodes a row of
// columns. pg then describes and parses one column instead of ~35 and drizzle maps one: decoding the
// columns was the largest part of the API's own CPU a read.
// Values JSON would round (numeric, int8: beyond 2^53) are sent as text, the form the pg driver gives
// their decoders too; floats go as PostgreSQL's shortest exact text, the digits the driver would parse;
// jsonb as its own JSON.
import { Column, is, sql, type DriverValueDecoder, type SQL } from "drizzle-orm";

export type JsonRowFields = Record<string, Column | SQL>;

/** Column types whose values JSON numbers would round (the pg driver hands them over as text). */
const WIDE = /^(numeric|decimal|bigint|int8|bigserial|serial8|money)\b/i;

/** drizzle's identity mapping (a column type that does not map driver values: text, uuid, boolean...). */
const AS_IS = Column.prototype.mapFromDriverValue;

/**
 * The fields' values as one `json` expression whose driver value (the array pg parses) is decoded into an
 * object with the fields' keys. `R` is the row type drizzle infers for a select of the fields themselves
 * with the same joins (the caller states it).
 */
export function jsonRow<R>(fields: JsonRowFields): SQL<R> {
  const keys = Object.keys(fields);
  // null: the JSON value is the row's value.
  const decoders = keys.map((k): DriverValueDecoder<unknown, unknown> | null => {
    const f = fields[k]!;
    if (is(f, Column)) return f.mapFromDriverValue === AS_IS ? null : f;
    // An SQL field's decoder (its mapWith(), else the identity) is not in drizzle's typings; drizzle's own row mapping reads it the same way.
    return (f as unknown as { decoder: DriverValueDecoder<unknown, unknown> }).decoder;
  });
  const values = keys.map((k) => {
    const f = fields[k]!;
    return is(f, Column) && WIDE.test(f.getSQLType()) ? sql`${f}::text` : sql`${f}`;
  });
  const decode = (a: unknown[]): R => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < keys.length; i++) {
      const v = a[i];
      const d = decoders[i];
      row[keys[i]!] = v === null ? null : d ? d.mapFromDriverValue(v) : v;
    }
    return row as R;
  };
  return sql`json_build_array(${sql.join(values, sql`, `)})`.mapWith(decode) as SQL<R>;
}
