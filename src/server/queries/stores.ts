import type { Store } from '#shared/types.ts';
import type { StoreId } from '#shared/vocabulary.ts';
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

/** Each store's name by its id. */
export async function storeNames(sql: Db): Promise<Record<string, string>> {
  const rows = await sql<{ id: string; store_name: string }[]>`select id, store_name from stores`;
  return Object.fromEntries(rows.map((r) => [r.id, r.store_name]));
}

/** The ids of the active stores, in id order. */
export async function activeStoreIds(sql: Db): Promise<StoreId[]> {
  const rows = await sql<Array<{ id: StoreId }>>`select id from stores where active order by id`;
  return rows.map((r) => r.id);
}

/** Whether the store is active; null when there is no such store. */
export async function storeActive(sql: Db, id: string): Promise<boolean | null> {
  const [store] = await sql<Array<{ active: boolean }>>`select active from stores where id = ${id}`;
  return store ? store.active : null;
}
