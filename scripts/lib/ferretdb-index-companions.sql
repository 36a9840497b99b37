-- Index companions for FerretDB 1.24 on PostgreSQL (local store only; never applied to MongoDB).
--
-- FerretDB turns an equality filter on a field into a JSONB containment, `(_jsonb -> 'field') @> value`,
-- while the indexes it creates for a collection's declared indexes are btree indexes on
-- `(_jsonb -> 'field')`, which PostgreSQL cannot use for `@>` (a known FerretDB limitation,
-- github.com/FerretDB/FerretDB/issues/4646): every find, even by `_id`, is a sequential scan. A GIN index
-- on the same expression serves `@>`.
--
-- This event trigger gives every btree index FerretDB creates on a collection's table (the `_id` index
-- and each index the data layer declares, created by `syncIndexes` from the mongoose schemas) a GIN
-- companion per indexed expression, in the same transaction. FerretDB does not know about the companions
-- (it lists indexes from its own metadata) and they go with the table when a collection is dropped.
-- Idempotent: applied by `scripts/infra up` when FerretDB runs on PostgreSQL; also backfills companions
-- for tables that already exist.

SET client_min_messages = warning;

CREATE OR REPLACE FUNCTION spa_ferretdb_companions_of(index_oid oid) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  idx record;
  k int;
  expr text;
  companion text;
BEGIN
  SELECT i.indexrelid, i.indrelid, i.indnatts, c.relnamespace, am.amname
    INTO idx
    FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid
    JOIN pg_am am ON am.oid = c.relam
   WHERE i.indexrelid = index_oid;
  IF NOT FOUND OR idx.amname <> 'btree' THEN
    RETURN; -- not an index, or a companion itself
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = idx.indrelid AND attname = '_jsonb' AND NOT attisdropped) THEN
    RETURN; -- not a FerretDB collection table
  END IF;
  FOR k IN 1..idx.indnatts LOOP
    expr := pg_get_indexdef(idx.indexrelid, k, true);
    CONTINUE WHEN expr NOT LIKE '(_jsonb -> %' AND expr NOT LIKE '((_jsonb -> %';
    companion := 'spa_gin_' || md5(idx.indrelid::text || ':' || expr);
    -- fastupdate off: no pending list for every lookup to scan while inserts keep coming.
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %s USING gin ((%s)) WITH (fastupdate = off)', companion, idx.indrelid::regclass, expr);
  END LOOP;
END;
$$;

CREATE OR REPLACE FUNCTION spa_ferretdb_companions_on_ddl() RETURNS event_trigger
LANGUAGE plpgsql AS $$
DECLARE
  cmd record;
BEGIN
  FOR cmd IN SELECT objid FROM pg_event_trigger_ddl_commands() WHERE command_tag = 'CREATE INDEX' AND object_type = 'index' LOOP
    BEGIN
      PERFORM spa_ferretdb_companions_of(cmd.objid);
    EXCEPTION WHEN others THEN
      -- A companion only speeds reads up: never fail the store's own DDL over one.
      RAISE WARNING 'spa: no GIN companion for index %: %', cmd.objid, SQLERRM;
    END;
  END LOOP;
END;
$$;

DROP EVENT TRIGGER IF EXISTS spa_ferretdb_index_companions;
CREATE EVENT TRIGGER spa_ferretdb_index_companions ON ddl_command_end
  WHEN TAG IN ('CREATE INDEX')
  EXECUTE FUNCTION spa_ferretdb_companions_on_ddl();

-- Companions made by an earlier version of this script, with GIN's pending list on.
DO $$
DECLARE
  i record;
BEGIN
  FOR i IN SELECT c.oid::regclass AS name FROM pg_class c JOIN pg_am am ON am.oid = c.relam
            WHERE c.relkind = 'i' AND am.amname = 'gin' AND c.relname LIKE 'spa_gin_%'
              AND NOT coalesce(c.reloptions @> ARRAY['fastupdate=off'], false) LOOP
    BEGIN
      EXECUTE format('ALTER INDEX %s SET (fastupdate = off)', i.name);
    EXCEPTION WHEN others THEN
      NULL; -- dropped meanwhile
    END;
  END LOOP;
END;
$$;

-- Tables created before the trigger existed.
DO $$
DECLARE
  i record;
BEGIN
  FOR i IN
    SELECT ix.indexrelid
      FROM pg_index ix
      JOIN pg_class c ON c.oid = ix.indexrelid
      JOIN pg_am am ON am.oid = c.relam
      JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attname = '_jsonb' AND NOT a.attisdropped
     WHERE am.amname = 'btree'
  LOOP
    BEGIN
      PERFORM spa_ferretdb_companions_of(i.indexrelid);
    EXCEPTION WHEN others THEN
      NULL; -- dropped meanwhile (tests drop their databases as they end)
    END;
  END LOOP;
END;
$$;
