-- Guilds, notifications, vault (issue 5): tables of this area in schema "api". Hand-written; keep statements separated by breakpoints.
SELECT 1;
