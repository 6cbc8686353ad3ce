package persistence

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// MigrationFiles exposes the embedded migrations to the external tests.
var MigrationFiles = migrationFiles

// LikeStatement exposes the batch's like statement to the plan test.
const LikeStatement = likeStatement

// TagPagePlan is the plan of the first newest page of tag for viewer.
func TagPagePlan(t *testing.T, ctx context.Context, db bun.IDB, tag string, viewer uuid.UUID) string {
	t.Helper()
	query, args := tagPageSQL(TagPageQuery{Tag: tag, Viewer: viewer, Limit: 20})
	rows, err := unprepared(ctx, db, "EXPLAIN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, line)
	}
	return strings.Join(plan, "\n")
}

// SuggestSQL exposes the typeahead's query to the plan test.
var SuggestSQL = suggestSQL

// PostsQuery exposes the statement behind Posts to the plan test.
var PostsQuery = postsQuery
