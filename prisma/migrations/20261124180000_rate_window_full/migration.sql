-- When a rate-limit window is full, in one place: toolroom_take_rate refuses a call on it, and the
-- explainer (POST /api/v1/agents/{id}/explain) reads the counters with it, without counting, to say
-- what a call would get now. Same behaviour as before for the gateway: only the comparison moved.
CREATE FUNCTION toolroom_rate_full(used int, max_calls int) RETURNS boolean LANGUAGE sql IMMUTABLE AS
  'SELECT used >= max_calls';

CREATE OR REPLACE FUNCTION toolroom_take_rate(scopes text[], windows timestamptz[], expires timestamptz[], limits int[]) RETURNS int LANGUAGE plpgsql AS
  E'DECLARE i int; c int;
  BEGIN
    FOR i IN 1..coalesce(array_length(scopes, 1), 0) LOOP
      INSERT INTO "GatewayRateCounter" (scope, "windowStart", count, "expiresAt") VALUES (scopes[i], windows[i], 0, expires[i])
        ON CONFLICT (scope, "windowStart") DO UPDATE SET count = "GatewayRateCounter".count
        RETURNING count INTO c;
      IF toolroom_rate_full(c, limits[i]) THEN RETURN i; END IF;
    END LOOP;
    UPDATE "GatewayRateCounter" g SET count = g.count + 1 FROM unnest(scopes, windows) AS u(scope, w)
      WHERE g.scope = u.scope AND g."windowStart" = u.w;
    RETURN 0;
  END';
