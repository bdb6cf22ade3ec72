-- The manage and unsubscribe links of subscription emails. Every email of a subscription (its
-- confirmation, each alert and digest) carries a token of its own, stored here only as its SHA-256
-- hash, like the other tokens: a copy of this table opens nobody's subscription. A token stays
-- valid while its subscription exists, so the links of an old email keep working.
create table subscription_link_tokens (
  token_hash       text primary key,
  subscription_id  integer not null references subscriptions (id) on delete cascade,
  created_at       timestamptz not null default now()
);
create index subscription_link_tokens_subscription_idx on subscription_link_tokens (subscription_id);

-- The one token each subscription had, stored in plain text until now: the links of the emails
-- already sent keep working through its hash.
insert into subscription_link_tokens (token_hash, subscription_id, created_at)
select encode(sha256(convert_to(unsubscribe_token, 'UTF8')), 'hex'), id, created_at from subscriptions;
alter table subscriptions drop column unsubscribe_token;
