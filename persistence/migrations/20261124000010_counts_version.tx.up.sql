-- A post's counts_version grows by one with every commit that moves its
-- like or comment count. Counts reach a client by several roads (a call's
-- answer, a post:counts frame, a page of the feed), and not in the order they
-- were committed; with the version the client keeps the newest and drops an
-- older one that arrives late. Adding a column with a constant default does
-- not rewrite the table.
ALTER TABLE posts ADD COLUMN counts_version bigint NOT NULL DEFAULT 0;
