package domain

import (
	"regexp"
	"strings"
)

// MsgInvalidUniversityID is the spec's message for a malformed university ID.
const MsgInvalidUniversityID = "Invalid university ID format. Example: BWU/BCA/20/123"

// FallbackYear is shown when a university ID carries no usable batch (docs/product.md §9).
const FallbackYear = "2024"

// universityIDPattern is docs/product.md §5's format: uppercase letters / uppercase
// letters / digits / digits. The segment lengths are caps of our own so that
// an ID stays a short label (and "20"+batch stays a year).
var universityIDPattern = regexp.MustCompile(`^([A-Z]{1,16})/([A-Z]{1,16})/([0-9]{1,4})/([0-9]{1,12})$`)

// UniversityID is a parsed student ID such as BWU/BCA/20/123.
type UniversityID struct {
	College string // BWU
	Program string // BCA
	Batch   string // 20: the intake year without its century
	Number  string // 123
}

// ParseUniversityID normalizes s (trimmed, upper-cased) and checks it against
// the university ID format.
func ParseUniversityID(s string) (UniversityID, error) {
	m := universityIDPattern.FindStringSubmatch(NormalizeUniversityID(s))
	if m == nil {
		return UniversityID{}, InvalidField("universityId", MsgInvalidUniversityID)
	}
	return UniversityID{College: m[1], Program: m[2], Batch: m[3], Number: m[4]}, nil
}

// String is the canonical form, e.g. BWU/BCA/20/123.
func (u UniversityID) String() string {
	return u.College + "/" + u.Program + "/" + u.Batch + "/" + u.Number
}

// Year is the intake year shown on the profile; see YearFromUniversityID.
func (u UniversityID) Year() string { return year(u.Batch) }

// YearFromUniversityID is the profile's Year tile (docs/product.md §2.14): "20" followed
// by the third slash-separated part of the ID, else 2024. It takes any string
// because profiles of faculty and legacy users carry no valid ID. A four-digit
// third part is already a year and is shown as is; anything that is not two
// or four digits gives the fallback rather than a nonsense year.
func YearFromUniversityID(s string) string {
	parts := strings.Split(strings.TrimSpace(s), "/")
	if len(parts) < 3 {
		return FallbackYear
	}
	return year(parts[2])
}

func year(batch string) string {
	if !allDigits(batch) {
		return FallbackYear
	}
	switch len(batch) {
	case 2:
		return "20" + batch
	case 4:
		return batch
	}
	return FallbackYear
}

// allDigits reports whether s is non-empty and only ASCII digits.
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
