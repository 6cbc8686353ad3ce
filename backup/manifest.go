package backup

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// FormatVersion is the layout of a backup directory this build writes.
// A restore refuses any other: a newer layout may hold things it would
// silently leave out.
const FormatVersion = 1

// Names inside a backup directory.
const (
	ManifestFile = "manifest.json"
	DumpFile     = "database.dump"
	MediaDir     = "media"
)

// Manifest describes one backup. It is written last, so a directory
// without one is an unfinished backup.
type Manifest struct {
	Format        int       `json:"format"`
	CampusVersion string    `json:"campus_version"`
	CreatedAt     time.Time `json:"created_at"`
	Database      Database  `json:"database"`
	Media         Media     `json:"media"`
	// MissingMedia are keys the dumped database refers to whose files were
	// deleted before the media copy reached them (see Backup): a restore
	// brings those rows back without their images.
	MissingMedia []string `json:"missing_media,omitempty"`
}

// Database describes the dump.
type Database struct {
	File   string `json:"file"`
	Format string `json:"format"` // pg_dump's --format
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
	// PgDumpMajor is the major version of the pg_dump that wrote the
	// file; only a pg_restore at least as new can read it.
	PgDumpMajor int `json:"pg_dump_major"`
	// ServerVersion is the dumped server's version, for the operator.
	ServerVersion string `json:"server_version"`
	// Migration is the newest migration applied to the dumped database.
	Migration string `json:"migration"`
	// Rows counts a few tables, for the operator to check a restore by.
	Rows map[string]int64 `json:"rows"`
}

// Media describes the copied files.
type Media struct {
	Files int64       `json:"files"`
	Bytes int64       `json:"bytes"`
	Items []MediaFile `json:"items"`
}

// MediaFile is one copied file, stored at media/<first two characters of
// the key>/<key> like the file store keeps it.
type MediaFile struct {
	Key    string `json:"key"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// mediaPath is where key lives inside a backup directory.
func mediaPath(dir, key string) string {
	return filepath.Join(dir, MediaDir, key[:2], key)
}

// checkKey refuses a key that is not a single, ordinary file name: keys in
// a manifest are read back from disk and must never reach outside the
// backup directory. Stores refuse keys they could not have made as well.
func checkKey(key string) error {
	if len(key) < 3 || strings.ContainsAny(key, `/\`+"\x00") || strings.HasPrefix(key, ".") {
		return fmt.Errorf("backup: media key %q is not a plain file name", key)
	}
	return nil
}

// ReadManifest reads and checks the manifest of the backup in dir.
func ReadManifest(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s has no %s (an unfinished backup, or not a backup at all)", ErrCorrupt, dir, ManifestFile)
	}
	if err != nil {
		return nil, fmt.Errorf("backup: read manifest: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrCorrupt, ManifestFile, err)
	}
	if m.Format != FormatVersion {
		return nil, fmt.Errorf("%w: backup format %d, this campus reads format %d", ErrCorrupt, m.Format, FormatVersion)
	}
	if m.Database.File != DumpFile || m.Database.Format != "custom" {
		return nil, fmt.Errorf("%w: unexpected database file %q (format %q)", ErrCorrupt, m.Database.File, m.Database.Format)
	}
	var bytes int64
	seen := make(map[string]bool, len(m.Media.Items))
	for _, f := range m.Media.Items {
		if err := checkKey(f.Key); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
		}
		if seen[f.Key] {
			return nil, fmt.Errorf("%w: media key %s listed twice", ErrCorrupt, f.Key)
		}
		seen[f.Key] = true
		bytes += f.Size
	}
	if int64(len(m.Media.Items)) != m.Media.Files || bytes != m.Media.Bytes {
		return nil, fmt.Errorf("%w: the manifest's media totals do not match its list", ErrCorrupt)
	}
	return &m, nil
}

// writeManifest writes m into dir atomically: a crash leaves either no
// manifest (an unfinished backup) or a whole one.
func writeManifest(dir string, m *Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("backup: encode manifest: %w", err)
	}
	tmp := filepath.Join(dir, "."+ManifestFile+".tmp")
	if err := writeFileSync(tmp, b); err != nil {
		return err
	}
	if err := os.Rename(tmp, filepath.Join(dir, ManifestFile)); err != nil {
		return fmt.Errorf("backup: write manifest: %w", err)
	}
	return syncDir(dir)
}

func writeFileSync(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("backup: write %s: %w", filepath.Base(path), err)
	}
	return nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("backup: sync %s: %w", dir, err)
	}
	return nil
}
