-- No statements: 0013_discovery_read_model and 0014_discovery_changes (hand-written: cube, generated
-- columns, GiST indexes, the change trigger) made these tables. This entry carries drizzle-kit's
-- snapshot forward so 'npm run db:generate' sees no drift.
SELECT 1;
