-- Rate limits counted for many calls in one statement (lib/gateway/rate-limit.ts): the calls that
-- reach a gateway process while its last batch is counted are counted together, in one transaction.
-- Each call was its own statement and commit before, and every limited call of an agent (or tool)
-- updates the same rows: the rows stayed locked through each commit's WAL flush, so those calls went
-- one flush at a time (at 20 connections 648 calls/s against 1,210 without limits; BENCHMARKS.md,
-- "Rate limits counted in batches").
--
-- `calls`: a JSON array of calls in the order they are to be counted, each an array of its windows
-- {scope, start, expires, limit} (start and expires as timestamps; windows are told apart by scope
-- and start as instants, not as the text they were written in). The answer has one entry per call:
-- 0 when the call was counted in every window, else the 1-based index of the first window that was
-- full (nothing counted for that call), exactly as toolroom_take_rate answers one call alone.
--
-- A batch of many calls creates every window when new and locks it before any is counted, in one
-- order (scope by its bytes, then window start) whatever the order of the calls, so two batches (of
-- two gateway processes) never wait on each other in a cycle. The counts are then kept in arrays and
-- written once. One call alone takes its windows in its own order, which is the same one.
CREATE FUNCTION toolroom_take_rates(calls jsonb) RETURNS int[] LANGUAGE plpgsql AS $fn$
DECLARE
  -- The batch's windows, each once: the rows locked, and their counts as the calls are counted.
  scopes text[];
  starts timestamptz[];
  counts int[];
  -- Every call's windows in order (call, then window): whose call, which row, what limit.
  call_of int[];
  row_of int[];
  limit_of int[];
  hits int[] := '{}';
  total int;
  pos int := 1;
  first int;
  full_at int;
  used int;
  j int;
BEGIN
  -- The transaction that counts (the gateway runs this function alone, in a transaction of its own)
  -- commits without waiting for its WAL to reach the disk, and holds the windows' rows only as long
  -- as the counting takes. What that can lose: a PostgreSQL crash within a fraction of a second
  -- (wal_writer_delay) can forget these counts, but only those of calls not recorded yet. A counted
  -- call's record is written after its count, and the record's commit waits for the WAL up to
  -- itself to be flushed, the count's included: a call answered from a recorded row was counted for
  -- good. A call lost with its own record by the crash loses its count with it.
  PERFORM set_config('synchronous_commit', 'off', true);

  -- One call alone (an agent calling one tool at a time, the usual case at low load): its windows in
  -- its own order, which is scope order (lib/gateway/rate-limit.ts sorts them; the scopes are ASCII,
  -- where that order and the bytes' below are the same), stopping at the first full one. A third of
  -- the general path's cost, whose arrays are for many calls.
  IF jsonb_array_length(calls) = 1 THEN
    FOR j IN 0..jsonb_array_length(calls->0) - 1 LOOP
      INSERT INTO "GatewayRateCounter" AS g (scope, "windowStart", count, "expiresAt")
        VALUES (calls->0->j->>'scope', (calls->0->j->>'start')::timestamptz, 0, (calls->0->j->>'expires')::timestamptz)
        ON CONFLICT (scope, "windowStart") DO UPDATE SET count = g.count
        RETURNING g.count INTO used;
      IF toolroom_rate_full(used, (calls->0->j->>'limit')::int) THEN
        RETURN ARRAY[j + 1];
      END IF;
    END LOOP;
    UPDATE "GatewayRateCounter" g SET count = g.count + 1
      FROM jsonb_array_elements(calls->0) AS w
      WHERE g.scope = w->>'scope' AND g."windowStart" = (w->>'start')::timestamptz;
    RETURN ARRAY[0];
  END IF;

  -- Created when new, locked when not (DO UPDATE locks the row it meets), in the INSERT's order.
  WITH asked AS (
    SELECT w->>'scope' AS scope, (w->>'start')::timestamptz AS start, max((w->>'expires')::timestamptz) AS expires
      FROM jsonb_array_elements(calls) AS c(windows), jsonb_array_elements(c.windows) AS w
      GROUP BY 1, 2
  ), locked AS (
    INSERT INTO "GatewayRateCounter" AS g (scope, "windowStart", count, "expiresAt")
      SELECT scope, start, 0, expires FROM asked ORDER BY scope COLLATE "C", start
      ON CONFLICT (scope, "windowStart") DO UPDATE SET count = g.count
      RETURNING g.scope, g."windowStart", g.count
  )
  SELECT array_agg(l.scope), array_agg(l."windowStart"), array_agg(l.count) INTO scopes, starts, counts FROM locked l;

  SELECT array_agg(x.n ORDER BY x.n, x.i), array_agg(x.at ORDER BY x.n, x.i), array_agg(x.max_calls ORDER BY x.n, x.i)
    INTO call_of, row_of, limit_of
    FROM (SELECT c.n, w.i, (w.v->>'limit')::int AS max_calls, k.at
            FROM jsonb_array_elements(calls) WITH ORDINALITY AS c(windows, n)
            CROSS JOIN LATERAL jsonb_array_elements(c.windows) WITH ORDINALITY AS w(v, i)
            LEFT JOIN unnest(scopes, starts) WITH ORDINALITY AS k(scope, start, at)
              ON k.scope = w.v->>'scope' AND k.start = (w.v->>'start')::timestamptz) x;
  total := coalesce(array_length(call_of, 1), 0);

  -- Each call as if alone, in the batch's order: refused at its first full window (counted nowhere),
  -- else counted in all of them.
  FOR n IN 1..jsonb_array_length(calls) LOOP
    first := pos;
    full_at := 0;
    WHILE pos <= total AND call_of[pos] = n LOOP
      -- Every window was locked above; one that was not would be counted nowhere: refuse the batch.
      IF row_of[pos] IS NULL THEN
        RAISE EXCEPTION 'a rate window of call % was not locked', n;
      END IF;
      IF full_at = 0 AND toolroom_rate_full(counts[row_of[pos]], limit_of[pos]) THEN
        full_at := pos - first + 1;
      END IF;
      pos := pos + 1;
    END LOOP;
    IF full_at = 0 THEN
      FOR j IN first..pos - 1 LOOP
        counts[row_of[j]] := counts[row_of[j]] + 1;
      END LOOP;
    END IF;
    hits := hits || full_at;
  END LOOP;

  UPDATE "GatewayRateCounter" g SET count = u.count
    FROM unnest(scopes, starts, counts) AS u(scope, start, count)
    WHERE g.scope = u.scope AND g."windowStart" = u.start AND g.count <> u.count;
  RETURN hits;
END
$fn$;

-- toolroom_take_rate (one call) stays: gateway processes of the previous release still call it while
-- a rolling update replaces them. Both count in the same rows under the same row locks, each taking
-- them in scope order (a call's windows are sorted by scope, lib/gateway/rate-limit.ts).
