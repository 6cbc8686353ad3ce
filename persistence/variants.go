package persistence

import (
	"encoding/json"
	"fmt"
)

// ImageVariant is one smaller copy of a stored image.
type ImageVariant struct {
	URL    string `json:"url"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// ImageVariants are an image's smaller copies, ascending by width, kept as a
// jsonb array. Nil is stored as an empty array, as the column's check
// wants, and an empty array reads back as nil.
type ImageVariants []ImageVariant

// Value implements driver.Valuer: the JSON text, which Postgres takes for
// jsonb.
func (v ImageVariants) Value() (any, error) {
	if len(v) == 0 {
		return "[]", nil
	}
	b, err := json.Marshal([]ImageVariant(v))
	if err != nil {
		return nil, fmt.Errorf("persistence: image variants: %w", err)
	}
	return string(b), nil
}

// MarshalJSON writes nil as [], not null: Bun writes a slice column as its
// JSON.
func (v ImageVariants) MarshalJSON() ([]byte, error) {
	if len(v) == 0 {
		return []byte("[]"), nil
	}
	return json.Marshal([]ImageVariant(v))
}

// Scan implements sql.Scanner.
func (v *ImageVariants) Scan(src any) error {
	var b []byte
	switch s := src.(type) {
	case nil:
		*v = nil
		return nil
	case []byte:
		b = s
	case string:
		b = []byte(s)
	default:
		return fmt.Errorf("persistence: image variants from %T", src)
	}
	var out []ImageVariant
	if err := json.Unmarshal(b, &out); err != nil {
		return fmt.Errorf("persistence: image variants: %w", err)
	}
	if len(out) == 0 {
		out = nil
	}
	*v = out
	return nil
}
