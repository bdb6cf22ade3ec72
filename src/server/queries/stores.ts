import type { Store } from '#shared/types.ts';
import type { Db } from '../db.ts';
import { AppError } from './errors.ts';

export async function listStores(sql: Db): Promise<Store[]> {
  return sql<Store[]>`
    select id, store_name, store_logo_url, regions_served, store_type, active
    from stores
    order by store_name`;
}

export async function storeById(sql: Db, id: string): Promise<Store | null> {
  const [store] = await sql<Store[]>`
    select id, store_name, store_logo_url, regions_served, store_type, active
    from stores
    where id = ${id}`;
  return store ?? null;
}

/** The store, or a 404 naming the id: an unknown store is never an empty answer. */
export async function requireStore(sql: Db, id: string): Promise<Store> {
  const store = await storeById(sql, id);
  if (!store) throw new AppError(404, `Store '${id}' not found`);
  return store;
}
