package app

import (
	"testing"

	"campus/persistence/testdb"
)

func TestMain(m *testing.M) { testdb.Main(m) }
