package searchindex

import (
	"slices"
	"testing"
)

func TestTextAnalyzer(t *testing.T) {
	im, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	a := im.AnalyzerNamed(textAnalyzer)
	tests := []struct {
		in   string
		want []string
	}{
		{"José Álvarez", []string{"jose", "alvarez"}},
		{"BWU/BCA/20/123", []string{"bwu", "bca", "20", "123"}},
		{"Straße, Ærø and Łódź!", []string{"strasse", "aero", "and", "lodz"}},
		{"Asha's  post\n\tis   HERE", []string{"asha", "s", "post", "is", "here"}},
		{"नमस्ते दुनिया", []string{"नमस्ते", "दुनिया"}}, // vowel signs are marks: words stay whole
		{"Faculty · Physics", []string{"faculty", "physics"}},
		{"   ", nil},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			var got []string
			for _, tok := range a.Analyze([]byte(tt.in)) {
				got = append(got, string(tok.Term))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Analyze(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseQuery(t *testing.T) {
	im, err := newMapping()
	if err != nil {
		t.Fatal(err)
	}
	qb := newQueryBuilder(im.AnalyzerNamed(textAnalyzer))
	tests := []struct {
		in         string
		words      []string
		prefixLast bool
		exact      string
	}{
		{"Comp", []string{"comp"}, true, "comp"},
		{"computer ", []string{"computer"}, false, "computer"},
		{"computer s", []string{"computer"}, true, "computer s"},
		{"a", []string{"a"}, true, "a"},
		{"  Asha   RAO ", []string{"asha", "rao"}, false, "asha rao"},
		{"one two three four five six seven eight nine ten", []string{"one", "two", "three", "four", "five", "six", "seven", "eight"}, true,
			"one two three four five six seven eight nine ten"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p := qb.parse(tt.in)
			if !slices.Equal(p.words, tt.words) || p.prefixLast != tt.prefixLast || p.exact != tt.exact {
				t.Errorf("parse(%q) = %q %v %q, want %q %v %q", tt.in, p.words, p.prefixLast, p.exact, tt.words, tt.prefixLast, tt.exact)
			}
		})
	}
}
