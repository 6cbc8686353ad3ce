package persistence

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/google/uuid"
)

// Arrays for and from prepared statements: database/sql passes a parameter
// as text, so an array goes as a Postgres array literal and comes back as
// its text form.

// arrayLiteral is ss as a Postgres array literal, every element quoted so
// that empty strings survive.
func arrayLiteral(ss []string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, s := range ss {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		for _, r := range s {
			if r == '"' || r == '\\' {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}

// uuidArray is ids as a Postgres array literal.
func uuidArray(ids []uuid.UUID) string {
	ss := make([]string, len(ids))
	for i, id := range ids {
		ss[i] = id.String()
	}
	return arrayLiteral(ss)
}

// arrayElements splits the text of a one-dimensional array of unquoted
// elements (numbers, uuids: "{a,b}") into its elements.
func arrayElements(b []byte) ([][]byte, error) {
	if len(b) < 2 || b[0] != '{' || b[len(b)-1] != '}' {
		return nil, fmt.Errorf("persistence: not an array: %q", b)
	}
	if b = b[1 : len(b)-1]; len(b) == 0 {
		return nil, nil
	}
	return bytes.Split(b, []byte{','}), nil
}

// parseIDArray reads the text of a uuid[].
func parseIDArray(b []byte) ([]uuid.UUID, error) {
	els, err := arrayElements(b)
	if err != nil {
		return nil, err
	}
	out := make([]uuid.UUID, 0, len(els))
	for _, e := range els {
		id, err := uuid.ParseBytes(e)
		if err != nil {
			return nil, fmt.Errorf("persistence: parse id: %w", err)
		}
		out = append(out, id)
	}
	return out, nil
}

// parsePositions reads the text of an int8[] of 1-based positions ("{1,3}")
// as 0-based ones.
func parsePositions(b []byte) ([]int, error) {
	els, err := arrayElements(b)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, e := range els {
		n, err := strconv.Atoi(string(e))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("persistence: position %q", e)
		}
		out = append(out, n-1)
	}
	return out, nil
}
