-- Images in messages (issue 29): up to four per message, stored by the
-- media store as post images are (metadata stripped, resized, variants).
-- Written in the send's own transaction, so a message never shows without
-- its images; unsending deletes the rows (and then the files), a moderator's
-- removal keeps them for the audit trail, hidden from the members.
CREATE TABLE message_images (
    conversation_id uuid NOT NULL,
    seq             bigint NOT NULL,
    position        smallint NOT NULL CHECK (position BETWEEN 0 AND 3),
    storage_key     text NOT NULL,
    url             text NOT NULL,
    type            text NOT NULL DEFAULT 'image',
    content_type    text NOT NULL DEFAULT '',
    width           integer NOT NULL DEFAULT 0 CHECK (width >= 0),
    height          integer NOT NULL DEFAULT 0 CHECK (height >= 0),
    size_bytes      bigint NOT NULL DEFAULT 0 CHECK (size_bytes >= 0),
    alt             text NOT NULL DEFAULT '' CHECK (char_length(alt) <= 1000),
    variants        jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(variants) = 'array'),
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (conversation_id, seq, position),
    FOREIGN KEY (conversation_id, seq) REFERENCES messages (conversation_id, seq) ON DELETE CASCADE
);
