-- The hourly rollups are rewritten in place: the minute's rollup adds to the current hour's rows and
-- late calls add to old hours' rows. None of those writes changes an indexed column, so with room
-- left on the row's page PostgreSQL writes the new version there (a HOT update) and touches neither
-- the primary key nor the hour index; on full pages every such write also inserts into both indexes
-- (docs/design/statistics.md#rollup-cost). Applies to pages written from now on: hourly rows are kept
-- 8 days, so within 8 days every page has the room.
ALTER TABLE "CallStatHourly" SET (fillfactor = 70);
ALTER TABLE "CallStatToolHourly" SET (fillfactor = 70);
ALTER TABLE "CallStatPersonHourly" SET (fillfactor = 70);
