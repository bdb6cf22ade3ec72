-- Store logos come from the app itself (public/logos/), not from a third-party icon service:
-- loading them from elsewhere failed offline and told that service what shoppers looked at.
-- Rows seeded before this migration pointed at the service; a logo set by hand stays as it is.
update stores
   set store_logo_url = '/logos/' || id || '.svg'
 where store_logo_url like 'https://icons.duckduckgo.com/%'
   and id in ('walmart', 'target', 'kroger', 'albertsons', 'whole-foods', 'aldi');
