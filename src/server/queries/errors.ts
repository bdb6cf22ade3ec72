/** True for PostgreSQL's unique_violation on the given constraint or index. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint_name?: string } | null;
  return e?.code === '23505' && e.constraint_name === constraint;
}
