package cluster

import (
	"testing"

	"campus/persistence/testdb"
)

// TestMain gives the three-process test its Postgres (testdb's embedded
// server, or TEST_DATABASE_URL).
func TestMain(m *testing.M) { testdb.Main(m) }
