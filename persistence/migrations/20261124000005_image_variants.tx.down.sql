ALTER TABLE users DROP COLUMN cover_variants, DROP COLUMN avatar_variants;
ALTER TABLE post_images DROP COLUMN variants, DROP COLUMN alt;
