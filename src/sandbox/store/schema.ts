/**
 * The sandbox's tables. Bump SCHEMA_VERSION with any change: it names the cached template data
 * directory, so a stale template is never copied.
 */
export const SCHEMA_VERSION = 4;

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS sandbox_meta (
  name text PRIMARY KEY,
  value text NOT NULL
);
CREATE TABLE IF NOT EXISTS applications (
  id text PRIMARY KEY,
  name text NOT NULL,
  created_at double precision NOT NULL
);
-- Environment ids are opaque and belong to one application: the events URL is the only way to learn them.
CREATE TABLE IF NOT EXISTS environments (
  id text PRIMARY KEY,
  application_id text NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
  name text NOT NULL CHECK (name IN ('Test', 'Live')),
  UNIQUE (application_id, name)
);
-- Only the sha-256 of a key is stored; the key itself is shown once, when it is minted.
CREATE TABLE IF NOT EXISTS api_keys (
  hash text PRIMARY KEY,
  application_id text NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
  created_at double precision NOT NULL
);
-- json, not jsonb: jsonb reorders object keys, and the order of result properties is what the author wrote.
CREATE TABLE IF NOT EXISTS actions (
  id text PRIMARY KEY,
  application_id text NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
  key text NOT NULL,
  metadata json NOT NULL,
  implementation text,
  created_at double precision NOT NULL,
  updated_at double precision NOT NULL,
  UNIQUE (application_id, key)
);
CREATE TABLE IF NOT EXISTS events (
  seq bigserial PRIMARY KEY,
  id uuid NOT NULL UNIQUE,
  action_id text NOT NULL REFERENCES actions(id) ON DELETE CASCADE,
  environment_id text NOT NULL REFERENCES environments(id) ON DELETE CASCADE,
  name text NOT NULL,
  data json NOT NULL,
  recorded_at double precision NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_environment ON events (action_id, environment_id, seq DESC);
-- Schema 2: versions of code and metadata, for conditional writes (If-Match) and the deploy history.
-- Added to a schema-1 data directory in place: its actions start at metadata version 1, code version
-- 1 when they have code (0 when not), with no history before.
ALTER TABLE actions ADD COLUMN IF NOT EXISTS metadata_version integer NOT NULL DEFAULT 1;
ALTER TABLE actions ADD COLUMN IF NOT EXISTS code_version integer NOT NULL DEFAULT 0;
UPDATE actions SET code_version = 1 WHERE code_version = 0 AND implementation IS NOT NULL;
CREATE TABLE IF NOT EXISTS action_versions (
  action_id text NOT NULL REFERENCES actions(id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('implementation', 'metadata')),
  version integer NOT NULL,
  content text NOT NULL,
  client text,
  created_at double precision NOT NULL,
  PRIMARY KEY (action_id, kind, version)
);
-- Schema 3: the rate limit's token buckets, shared by the processes of a team on one PostgreSQL
-- database (http/rateLimit.ts). A client is a key's hash or an address, never a key.
CREATE TABLE IF NOT EXISTS rate_limits (
  client text PRIMARY KEY,
  tokens double precision NOT NULL,
  at timestamptz NOT NULL,
  taken boolean NOT NULL
);
-- Schema 4: the name and description of an action as the list writes them (store.ts,
-- listActionsJson), kept by Postgres on every write of the metadata, so a list of 5,000 actions
-- parses no metadata (two json -> each, about 30 ms). NULL where Postgres cannot extract the fields
-- (any \\u escape: \\u0000 fails the statement), for which the list is built in JavaScript. Added
-- to an older data directory in place (the table is rewritten once).
ALTER TABLE actions ADD COLUMN IF NOT EXISTS list_fields text GENERATED ALWAYS AS (
  CASE WHEN strpos(metadata::text, '\\u') = 0
    THEN ',"name":' || (metadata -> 'name')::text || ',"description":' || (metadata -> 'description')::text
  END) STORED;
INSERT INTO sandbox_meta (name, value) VALUES ('schema_version', '${SCHEMA_VERSION}')
  ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value WHERE sandbox_meta.value::int < EXCLUDED.value::int;
`;
