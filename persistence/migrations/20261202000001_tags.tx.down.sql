DROP TABLE tag_backfill;
DROP TABLE post_tags;
