-- qipai store, version 12 (SQLite): nothing changes. PostgreSQL's version 12 moves its fence
-- from a trigger on each step to one read of the batch's rooms; SQLite has no fence (one
-- node a file: version 11 dropped its trigger).
SELECT 1;
