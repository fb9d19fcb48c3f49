import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * `column = ANY($1::type[])`: a list of values as ONE array parameter. drizzle's `inArray` writes
 * `IN ($1, …, $300)` for a class of 300, a new statement text (and typing work on both backends)
 * for every class size; this text is the same whatever the list's length. An empty list matches
 * nothing, as `inArray` does.
 */
export function anyOf(column: PgColumn, values: readonly unknown[]): SQL {
  return sql`${column} = ANY(${sql.param([...values])}::${sql.raw(column.getSQLType())}[])`;
}

/**
 * `anyOf` for a prepared statement (db/prepared.ts): the array is the placeholder `name`, given
 * when the statement is executed.
 */
export function anyOfPlaceholder(column: PgColumn, name: string): SQL {
  return sql`${column} = ANY(${sql.placeholder(name)}::${sql.raw(column.getSQLType())}[])`;
}
