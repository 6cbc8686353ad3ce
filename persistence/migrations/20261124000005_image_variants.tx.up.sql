-- Images done properly (issue 16): a description (alt text) per post image,
-- and the smaller copies the media store made of each image, as
-- [{url, width, height}] ascending by width. Rows from before have none
-- ('[]'): clients fall back to the original.
ALTER TABLE post_images
    ADD COLUMN alt text NOT NULL DEFAULT '' CHECK (char_length(alt) <= 1000),
    ADD COLUMN variants jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(variants) = 'array');
ALTER TABLE users
    ADD COLUMN avatar_variants jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(avatar_variants) = 'array'),
    ADD COLUMN cover_variants jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(cover_variants) = 'array');
