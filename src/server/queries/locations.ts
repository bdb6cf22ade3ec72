// Store locations' place facts: the coordinates, city and state a location lacks, filled from its
// ZIP code's geodata (src/server/geo.ts). Runs after every migration run (migrate.ts), so rows
// written before coordinates existed, or by a writer that had none, get them; idempotent (a
// second run changes nothing) and set-based (one UPDATE for every row).
import { zipFacts } from '../geo.ts';
import type { Db } from '../db.ts';

/** Fills missing coordinates (with the ZIP's centroid), city and state. Answers the rows changed. */
export async function backfillLocationPlaces(sql: Db): Promise<number> {
  const rows = await sql<{ zip: string }[]>`
    select distinct zip from store_locations
    where latitude is null or city is null or state is null`;
  const facts = rows.map((row) => zipFacts(row.zip)).filter((f) => f !== null);
  if (facts.length === 0) return 0;
  const updated = await sql`
    update store_locations l set
      latitude = coalesce(l.latitude, g.latitude),
      longitude = coalesce(l.longitude, g.longitude),
      coordinates_source = coalesce(l.coordinates_source, 'zip'),
      city = coalesce(l.city, g.city),
      state = coalesce(l.state, g.state)
    from unnest(${sql.array(facts.map((f) => f.zip))}::text[], ${sql.array(facts.map((f) => f.city))}::text[],
                ${sql.array(facts.map((f) => f.state))}::text[], ${sql.array(facts.map((f) => f.latitude))}::float8[],
                ${sql.array(facts.map((f) => f.longitude))}::float8[]) as g(zip, city, state, latitude, longitude)
    where l.zip = g.zip and (l.latitude is null or l.city is null or l.state is null)`;
  return updated.count;
}
