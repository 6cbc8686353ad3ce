-- Tags (issue 27 item 2): the #tags of each post, as domain.ExtractTags
-- finds them in its text (normalised: NFC, lower case; at most 30 a post).
-- Written with the post and rewritten when its text is edited; they go with
-- the post (cascade). created_at is the post's own, so that a tag's page,
-- newest first, is read in the order of post_tags_tag_idx and stops at the
-- page's end rather than sorting every post of the tag.
CREATE TABLE post_tags (
    post_id    uuid NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
    tag        text NOT NULL CHECK (char_length(tag) BETWEEN 1 AND 50),
    created_at timestamptz NOT NULL,
    PRIMARY KEY (post_id, tag)
);
CREATE INDEX post_tags_tag_idx ON post_tags (tag, created_at DESC, post_id DESC);

-- The posts written before tags existed get theirs from the application
-- (persistence.Migrate runs domain.ExtractTags over them, which SQL cannot
-- mirror exactly), page by page in id order from after_id; the row is
-- deleted once every post is done.
CREATE TABLE tag_backfill (
    after_id uuid NOT NULL
);
INSERT INTO tag_backfill (after_id) VALUES ('00000000-0000-0000-0000-000000000000');
