package persistence

// MigrationFiles exposes the embedded migrations to the external tests.
var MigrationFiles = migrationFiles
