package persistence

// MigrationFiles exposes the embedded migrations to the external tests.
var MigrationFiles = migrationFiles

// LikeStatement exposes the batch's like statement to the plan test.
const LikeStatement = likeStatement

// SuggestSQL exposes the typeahead's query to the plan test.
var SuggestSQL = suggestSQL

// PostsQuery exposes the statement behind Posts to the plan test.
var PostsQuery = postsQuery
