package persistence

// MigrationFiles exposes the embedded migrations to the external tests.
var MigrationFiles = migrationFiles

// LikeStatement exposes the batch's like statement to the plan test.
const LikeStatement = likeStatement

// PostsQuery exposes the statement behind Posts to the plan test.
var PostsQuery = postsQuery
